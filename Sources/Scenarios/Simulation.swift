import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Synchronization

public enum SimulationError: Error, CustomStringConvertible {
  case notLaunched(String)
  case noLocalServer(String)
  case notVirtual
  case readOnly(String)

  public var description: String {
    switch self {
    case .readOnly(let source):
      "the device was imported from \(source) and is read-only: edit the app, then dump it again"
    case .notLaunched(let command): "\(command): the app has not launched yet; add `launch` first"
    case .noLocalServer(let command):
      "\(command): server commands drive the local server, and this session talks to a remote one"
    case .notVirtual: "time can only be advanced by hand on a virtual clock"
    }
  }
}

/// Where the device's and the local server's state live, and which clock they run on.
public struct SimulationPlace: Sendable {
  public var clock: any EngineClock
  public var deviceStore: RegistrationStore
  public var serverStore: ServerStore
  /// A real endpoint (a tenant, or another regctl serve) instead of the local server.
  public var remote: RegistrationConfiguration?
  /// Run the engine's and the server's own loops on the clock (shell, inspector), rather
  /// than advancing by hand (scenarios).
  public var live: Bool

  public init(
    clock: any EngineClock, deviceStore: RegistrationStore, serverStore: ServerStore,
    remote: RegistrationConfiguration? = nil, live: Bool
  ) {
    self.clock = clock
    self.deviceStore = deviceStore
    self.serverStore = serverStore
    self.remote = remote
    self.live = live
  }

  /// Virtual time, in-memory stores: a scenario.
  public static func virtual() throws -> SimulationPlace {
    SimulationPlace(
      clock: VirtualClock(), deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory(), live: false)
  }
}

/// A device and the local server on one virtual clock: the engine of `regctl run` and of the
/// inspector's demo mode. Commands are the command language; time moves only through `advance`.
public final class Simulation: Sendable {
  public let setup: SimulationSetup
  public let clock: any EngineClock
  public let server: LocalEngagementServer
  public let log: RunLog
  private let deviceStore: RegistrationStore
  private let simulated: SimulatedTransport?
  private let front: EngagementHTTPServer?
  private let configuration: RegistrationConfiguration
  private let remote: Bool
  private let live: Bool
  private struct Running {
    var engine: RegistrationEngine?
    var environment: DeviceEnvironment
    var engineLoop: Task<Void, Never>?
    var serverLoop: Task<Void, Never>?
  }
  private let current = Mutex(Running(environment: .demo(.iOS)))

  private init(
    setup: SimulationSetup, clock: any EngineClock, server: LocalEngagementServer, log: RunLog,
    deviceStore: RegistrationStore, simulated: SimulatedTransport?, front: EngagementHTTPServer?,
    configuration: RegistrationConfiguration, remote: Bool, live: Bool
  ) {
    self.remote = remote
    self.live = live
    self.setup = setup
    self.clock = clock
    self.server = server
    self.log = log
    self.deviceStore = deviceStore
    self.simulated = simulated
    self.front = front
    self.configuration = configuration
    current.withLock {
      $0.environment = setup.environment ?? .demo(setup.platform, profile: setup.profile)
    }
  }

  public static func start(
    _ setup: SimulationSetup, place: SimulationPlace? = nil, log: RunLog = RunLog()
  ) async throws -> Simulation {
    let place = try place ?? SimulationPlace.virtual()
    let clock = place.clock
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: setup.appID, accessToken: setup.accessToken,
        processingDelay: setup.processingDelay, definedAttributes: setup.definedAttributes),
      store: place.serverStore, clock: clock,
      eventSink: { event, now in log.append(RunEvent(t: now, body: .server(event))) })
    var serverURL = "http://127.0.0.1:9"
    var front: EngagementHTTPServer?
    var simulated: SimulatedTransport?
    // With a remote endpoint the local server stays idle and needs no transport of its own.
    if place.remote == nil && setup.overHTTP {
      let http = EngagementHTTPServer(server: server)
      let port = try await http.start()
      serverURL = "http://127.0.0.1:\(port)"
      front = http
    } else if place.remote == nil {
      simulated = SimulatedTransport(server: server, clock: clock, latency: setup.networkLatency)
    }
    let configuration =
      try place.remote
      ?? RegistrationConfigurationBuilder()
      .setApplicationId(setup.appID).setAccessToken(setup.accessToken)
      .setMarketingCloudServerUrl(serverURL)
      .setDelayRegistrationUntilContactKeyIsSet(setup.delayRegistrationUntilContactKeyIsSet)
      .setPlatform(setup.platform).setDebugBuild(setup.debugBuild)
      .setRequestTimeout(setup.requestTimeout).setSDKProfile(setup.profile).build()
    let simulation = Simulation(
      setup: setup, clock: clock, server: server, log: log, deviceStore: place.deviceStore,
      simulated: simulated, front: front, configuration: configuration,
      remote: place.remote != nil, live: place.live)
    if place.live && place.remote == nil {
      let loop = Task { await server.run() }
      simulation.current.withLock { $0.serverLoop = loop }
    }
    return simulation
  }

  /// The configuration the engine runs with (token masked when printed).
  public var engineConfiguration: RegistrationConfiguration { configuration }

  public var storeLocation: String { deviceStore.location }

  /// True when registrations go to a remote endpoint, not the local server.
  public var isRemote: Bool { remote }

  /// Where registrations go, in words.
  public var destination: String {
    remote
      ? configuration.serverURL.absoluteString
      : setup.overHTTP
        ? "the local server on \(configuration.serverURL.absoluteString)"
        : "the local server (in process)"
  }

  public var engine: RegistrationEngine? { current.withLock { $0.engine } }

  public var now: Instant { clock.now() }

  // MARK: Commands

  public func execute(_ command: Command) async throws -> CommandOutcome {
    if let imported = setup.imported {
      if command == .launch { return .done("showing the device imported from \(imported.source)") }
      throw SimulationError.readOnly(imported.source)
    }
    switch command {
    case .launch:
      if engine != nil { return .done("already running; use restart to kill and relaunch") }
      try await launchEngine()
      return .done("launched")
    case .restart:
      guard let old = engine else { throw SimulationError.notLaunched("restart") }
      let loop = current.withLock { $0.engineLoop }
      loop?.cancel()
      await old.shutDown()
      await loop?.value
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
      if remote { throw SimulationError.noLocalServer(command.description) }
      try await serverCommand.apply(to: server)
      // Over HTTP, down and up stop and start a real listener; virtual time must not run
      // ahead of it.
      if let front { await front.waitUntil(listening: !(await server.isDown())) }
      let fault = await server.fault
      return .done(fault.map { "server: \($0.summary)" } ?? "server: \(serverCommand.doneText)")
    }
  }

  private func launchEngine() async throws {
    let (environment, log) = (current.withLock { $0.environment }, self.log)
    let transport: any RegistrationTransport = simulated ?? HTTPTransport()
    let engine = RegistrationEngine(
      configuration: configuration, store: deviceStore, transport: transport, clock: clock,
      environment: environment,
      makeDeviceID: { [setup] in setup.deviceID ?? UUID().uuidString },
      eventSink: { event in log.append(RunEvent(t: event.at, body: .engine(event.event))) })
    current.withLock { $0.engine = engine }
    try await engine.launch()
    if live {
      let loop = Task { await engine.run() }
      current.withLock { $0.engineLoop = loop }
    }
  }

  // MARK: Time

  /// Moves virtual time to `target`, doing everything due on the way in order: sends, answers
  /// coming back over the simulated network, and the server's processing.
  public func advance(to target: Instant) async throws {
    guard let clock = clock as? VirtualClock, !live else { throw SimulationError.notVirtual }
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
  /// Jumps a live clock to the next deadline of the engine or the local server, whichever
  /// comes first; nil when nothing is scheduled or the clock cannot jump. One rule for the
  /// inspector's `n` and the shell's `jump`.
  public func jumpToNextDeadline() async -> Instant? {
    let deadlines = [await engine?.nextDeadline, remote ? nil : await server.nextDeadline]
    guard let next = deadlines.compactMap({ $0 }).min(), let clock = clock as? ScaledClock
    else { return nil }
    clock.jump(to: next)
    return next
  }

  public func deviceSnapshot() async throws -> EngineSnapshot? {
    if let imported = setup.imported {
      return EngineSnapshot.stored(
        imported.state, location: "imported from \(imported.source) (read-only)",
        profile: imported.profile, now: clock.now())
    }
    return try await engine?.snapshot()
  }

  public func stop() async {
    let (engineLoop, serverLoop) = current.withLock { ($0.engineLoop, $0.serverLoop) }
    engineLoop?.cancel()
    serverLoop?.cancel()
    await engine?.shutDown()
    await engineLoop?.value
    await serverLoop?.value
    await front?.stop()
    await server.flush()
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
