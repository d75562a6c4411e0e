import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Synchronization

/// How a simulated run is set up: the app's configuration, the device, the server, the network.
public struct SimulationSetup: Sendable {
  public var appID = "995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47"
  public var accessToken = "demo-access-token-0123456789"
  public var platform: Platform = .iOS
  public var delayRegistrationUntilContactKeyIsSet = false
  public var debugBuild = false
  public var requestTimeout: Double = 30
  public var environment: DeviceEnvironment? = nil
  public var deviceID = "5A1D0C3E-0000-4000-8000-00000000D001"
  public var processingDelay: Double = 300
  public var definedAttributes: Set<String>? = nil
  /// Seconds a send spends on the wire (virtual).
  public var networkLatency: Double = 0
  /// Send over real loopback HTTP to the Hummingbird front instead of in process.
  public var overHTTP = false

  public init() {}
}

/// Thread-safe, ordered record of everything a run did.
public final class RunLog: Sendable {
  private let events = Mutex<[RunEvent]>([])
  private let listener: (@Sendable (RunEvent) -> Void)?

  public init(listener: (@Sendable (RunEvent) -> Void)? = nil) { self.listener = listener }

  public var all: [RunEvent] { events.withLock { $0 } }

  public func append(_ event: RunEvent) {
    events.withLock { $0.append(event) }
    listener?(event)
  }

  public func count(_ type: String) -> Int { events.withLock { $0.filter { $0.type == type }.count } }

  public func last(_ type: String) -> RunEvent? {
    events.withLock { $0.last { $0.type == type } }
  }
}

/// What a command did, in words, for the timeline and the shell.
public enum CommandOutcome: Sendable {
  case done(String)
  case edit(EditOutcome)
}

public enum SimulationError: Error, CustomStringConvertible {
  case notLaunched(String)

  public var description: String {
    switch self {
    case .notLaunched(let command): "\(command): the app has not launched yet; add `launch` first"
    }
  }
}

/// A device and the local server on one virtual clock: the engine of `regctl run` and of the
/// inspector's demo mode. Commands are the command language; time moves only through `advance`.
public final class Simulation: Sendable {
  public let setup: SimulationSetup
  public let clock: VirtualClock
  public let server: LocalEngagementServer
  public let log: RunLog
  private let deviceStore: RegistrationStore
  private let simulated: SimulatedTransport?
  private let front: EngagementHTTPServer?
  private let configuration: RegistrationConfiguration
  private let current = Mutex<(engine: RegistrationEngine?, environment: DeviceEnvironment)>(
    (nil, .demo(.iOS)))

  private init(
    setup: SimulationSetup, clock: VirtualClock, server: LocalEngagementServer, log: RunLog,
    deviceStore: RegistrationStore, simulated: SimulatedTransport?, front: EngagementHTTPServer?,
    configuration: RegistrationConfiguration
  ) {
    self.setup = setup
    self.clock = clock
    self.server = server
    self.log = log
    self.deviceStore = deviceStore
    self.simulated = simulated
    self.front = front
    self.configuration = configuration
    current.withLock { $0.environment = setup.environment ?? .demo(setup.platform) }
  }

  public static func start(_ setup: SimulationSetup, log: RunLog = RunLog()) async throws
    -> Simulation
  {
    let clock = VirtualClock()
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: setup.appID, accessToken: setup.accessToken,
        processingDelay: setup.processingDelay, definedAttributes: setup.definedAttributes),
      store: ServerStore.inMemory(), clock: clock,
      eventSink: { event, now in log.append(RunEvent(t: now, body: .server(event))) })
    var serverURL = "http://127.0.0.1:9"
    var front: EngagementHTTPServer?
    var simulated: SimulatedTransport?
    if setup.overHTTP {
      let http = EngagementHTTPServer(server: server)
      let port = try await http.start()
      serverURL = "http://127.0.0.1:\(port)"
      front = http
    } else {
      simulated = SimulatedTransport(server: server, clock: clock, latency: setup.networkLatency)
    }
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(setup.appID).setAccessToken(setup.accessToken)
      .setMarketingCloudServerUrl(serverURL)
      .setDelayRegistrationUntilContactKeyIsSet(setup.delayRegistrationUntilContactKeyIsSet)
      .setPlatform(setup.platform).setDebugBuild(setup.debugBuild)
      .setRequestTimeout(setup.requestTimeout).build()
    return Simulation(
      setup: setup, clock: clock, server: server, log: log,
      deviceStore: try RegistrationStore.inMemory(), simulated: simulated, front: front,
      configuration: configuration)
  }

  public var engine: RegistrationEngine? { current.withLock { $0.engine } }

  public var now: Instant { clock.now() }

  // MARK: Commands

  public func execute(_ command: Command) async throws -> CommandOutcome {
    switch command {
    case .launch:
      if engine != nil { return .done("already running; use restart to kill and relaunch") }
      try await launchEngine()
      return .done("launched")
    case .restart:
      guard let old = engine else { throw SimulationError.notLaunched("restart") }
      await old.shutDown()
      try await launchEngine()
      return .done("killed and relaunched: state came back from the store")
    case .foreground, .background:
      guard let engine else { throw SimulationError.notLaunched(command.description) }
      try await engine.setAppState(command == .foreground ? .foreground : .background)
      return .done("the app is in the \(command == .foreground ? "foreground" : "background")")
    case .edit(let edit):
      guard let engine else { throw SimulationError.notLaunched(command.description) }
      let outcome = try await engine.apply(edit)
      if case .applied = outcome, case .setSystem(let field, let raw) = edit,
        case .success(let value) = SystemFieldValue.parse(field, raw, platform: setup.platform)
      {
        // The OS now reports this value: a restart relaunches with it.
        current.withLock { SystemFieldValue.write(value, to: &$0.environment) }
      }
      return .edit(outcome)
    case .server(let serverCommand):
      try await serverCommand.apply(to: server)
      let fault = await server.fault
      return .done(fault.map { "server: \($0.summary)" } ?? "server: \(serverCommand.doneText)")
    }
  }

  private func launchEngine() async throws {
    let (environment, log) = (current.withLock { $0.environment }, self.log)
    let transport: any RegistrationTransport = simulated ?? HTTPTransport()
    let engine = RegistrationEngine(
      configuration: configuration, store: deviceStore, transport: transport, clock: clock,
      environment: environment, makeDeviceID: { [setup] in setup.deviceID },
      eventSink: { event in log.append(RunEvent(t: event.at, body: .engine(event.event))) })
    current.withLock { $0.engine = engine }
    try await engine.launch()
  }

  // MARK: Time

  /// Moves virtual time to `target`, doing everything due on the way in order: sends, answers
  /// coming back over the simulated network, and the server's processing.
  public func advance(to target: Instant) async throws {
    while true {
      try await settleInstantSends()
      let engineDue = await engine?.nextDeadline
      let serverDue = await server.nextDeadline
      let answerDue = simulated?.answerDueAt
      guard let next = [engineDue, serverDue, answerDue].compactMap({ $0 }).min(), next <= target
      else { break }
      clock.advance(to: max(next, clock.now()))
      if let answerDue, answerDue <= next { await engine?.settle() }
      if let serverDue, serverDue <= next { await server.processDue() }
      if let engineDue, engineDue <= next, let engine { try await engine.tick() }
    }
    clock.advance(to: target)
    await server.flush()
  }

  /// After a tick: waits for the send to reach the server, and, when its answer is immediate,
  /// for the answer too. An answer that takes (virtual) time stays on the wire.
  private func settleInstantSends() async throws {
    guard let engine, try await engine.snapshot().inFlight != nil else { return }
    if let simulated {
      await simulated.waitForArrivals(log.count("sending"))
      if simulated.answerDueAt != nil { return }
    }
    await engine.settle()
  }

  /// Everything the device holds now.
  public func deviceSnapshot() async throws -> EngineSnapshot? {
    try await engine?.snapshot()
  }

  public func stop() async {
    await engine?.shutDown()
    await front?.stop()
  }
}

extension ServerCommand {
  var doneText: String {
    switch self {
    case .up: "up, no fault"
    case .defineAttribute(let name): "attribute \(name) defined"
    default: "done"
    }
  }
}
