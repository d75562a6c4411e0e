import Clocks
import EngagementCore
import EngagementServer
import RegistrationCore
import RegistrationEngine
import SessionValues

/// What a session needs from a real network, given by the faces (SessionHTTP has the real
/// one). A session that never leaves the process (a scenario in virtual time) needs none, so
/// this module, and the inspector's UI above it, link no HTTP stack.
public protocol SessionNetwork: Sendable {
  /// The engine's transport to a real endpoint.
  func transport() -> any RegistrationTransport
  /// Starts an HTTP front on loopback for `server`.
  func openFront(for server: LocalEngagementServer) async throws -> any ServerFront
  /// Starts the front real apps talk to, as `options` say.
  func openReceiver(for server: LocalEngagementServer, options: ReceiverOptions)
    async throws -> any ServerFront
}

/// A session that receives real apps' registrations instead of simulating a device.
public struct ReceiverOptions: Sendable {
  /// 0 picks a free port.
  public var port: Int
  /// Relay device requests to this tenant.
  public var upstream: String?
  /// The address to bind: loopback unless a phone on the LAN must reach it.
  public var host: String
  /// https with these PEM files.
  public var tls: (certificate: String, key: String)?
  /// `--any-app`: adopt the first request's app id and token (loopback only).
  public var anyApp: Bool
  /// `--har`: write every device request and answer to this HAR 1.2 file.
  public var har: String?
  /// Told at once when a write of the `--har` file fails.
  public var harFailed: (@Sendable (String) -> Void)?
  /// Names the front answers to besides IP addresses and localhost (`--host-name`).
  public var hostNames: [String] = []
  /// Told the number of exchanges each time the `--har` file has been written.
  public var harWritten: (@Sendable (Int) -> Void)?

  public init(
    port: Int, upstream: String? = nil, host: String = "127.0.0.1",
    tls: (certificate: String, key: String)? = nil, anyApp: Bool = false, har: String? = nil,
    hostNames: [String] = []
  ) {
    self.hostNames = hostNames
    self.har = har
    self.anyApp = anyApp
    self.port = port
    self.upstream = upstream
    self.host = host
    self.tls = tls
  }
}

/// A running HTTP front of the local server.
public protocol ServerFront: Sendable {
  var url: String { get }
  func waitUntil(listening: Bool) async
  func stop() async
  /// What the front wrote besides its answers (a `--har` capture), in words; nil when nothing.
  var written: String? { get }
}

extension ServerFront {
  public var written: String? { nil }
}

/// How a simulated device's registrations travel.
public enum DeviceRoute: Sendable {
  /// To the local server in process, over a simulated network in the session's time.
  case inProcess
  /// Over real loopback HTTP to the local server's Hummingbird front.
  case loopback
  /// To a real endpoint (a tenant, or another `regctl serve`); the local server is idle.
  case remote(RegistrationConfiguration)
}

/// The time a device session runs on, and so what its clock keys can do.
public enum SessionClock: Sendable {
  /// Moved by hand (`advance`): a scenario, a demo. It never runs by itself.
  case virtual(VirtualClock)
  /// Real time, scaled and pausable, able to jump to a deadline. Live: the engine's and the
  /// server's own loops run on it (the shell, the inspector); not live only where a test
  /// drives the session by hand.
  case scaled(ScaledClock, live: Bool)

  /// The clock as the engine and the server read it.
  public var engineClock: any EngineClock {
    switch self {
    case .virtual(let clock): clock
    case .scaled(let clock, _): clock
    }
  }

  public var isLive: Bool {
    if case .scaled(_, let live) = self { return live }
    return false
  }
}

/// Where a device session's state lives, which clock it runs on, and how it reaches a server.
public struct SessionPlace: Sendable {
  public var clock: SessionClock
  public var deviceStore: RegistrationStore
  public var serverStore: ServerStore
  public var route: DeviceRoute
  public var network: (any SessionNetwork)?
  /// A demo: the virtual clock is walked by a scenario for the eye at this pace, which the
  /// faces' speed keys set.
  public var pace: DemoPace?

  public init(
    clock: SessionClock, deviceStore: RegistrationStore, serverStore: ServerStore,
    route: DeviceRoute = .inProcess, network: (any SessionNetwork)? = nil,
    pace: DemoPace? = nil
  ) {
    self.pace = pace
    self.clock = clock
    self.deviceStore = deviceStore
    self.serverStore = serverStore
    self.route = route
    self.network = network
  }

  /// Virtual time, in-memory stores: a scenario.
  public static func virtual(route: DeviceRoute = .inProcess, network: (any SessionNetwork)? = nil)
    throws -> SessionPlace
  {
    SessionPlace(
      clock: .virtual(VirtualClock()), deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory(), route: route, network: network)
  }

  /// A demo: virtual time from zero and in-memory stores, as a scenario run has, walked at
  /// `pace`.
  public static func demo(_ pace: DemoPace) throws -> SessionPlace {
    var place = try virtual()
    place.pace = pace
    return place
  }
}
