import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Synchronization

/// A device and a server on one clock: what `regctl run`, `regctl shell` and the inspector
/// drive. It owns the clock and its controls, executes the command language, words outcomes
/// once, logs typed events, and pushes a snapshot to its watcher after every change.
public final class Session: Sendable {
  /// How time moves and where registrations go.
  public enum Mode: Sendable, Hashable {
    /// Virtual time moved by hand (`advance`): scenarios.
    case virtual
    /// A scaled real clock, the local server in process or on loopback.
    case live
    /// A scaled real clock, registrations to a real endpoint; the local server is idle.
    case remote
    /// No simulated device: the local server receives (or relays) real apps' registrations
    /// and judges them (`regscope --receive`).
    case receiver
  }

  public let setup: SessionSetup
  public let mode: Mode
  public let server: LocalEngagementServer
  public let log: RunLog
  let clock: any EngineClock
  private let deviceStore: RegistrationStore
  private let simulated: SimulatedTransport?
  private let network: (any SessionNetwork)?
  private let front: (any ServerFront)?
  private let configuration: RegistrationConfiguration
  private let importedSnapshot: EngineSnapshot?
  private let publisher: SnapshotPublisher
  private struct Running {
    var engine: RegistrationEngine?
    var environment: DeviceEnvironment
    var engineLoop: Task<Void, Never>?
    var serverLoop: Task<Void, Never>?
  }
  private let current = Mutex(Running(environment: .demo(.iOS)))

  private init(
    setup: SessionSetup, mode: Mode, clock: any EngineClock, server: LocalEngagementServer,
    log: RunLog, deviceStore: RegistrationStore, simulated: SimulatedTransport?,
    network: (any SessionNetwork)?, front: (any ServerFront)?,
    configuration: RegistrationConfiguration, publisher: SnapshotPublisher
  ) {
    self.mode = mode
    self.setup = setup
    self.clock = clock
    self.server = server
    self.log = log
    self.deviceStore = deviceStore
    self.simulated = simulated
    self.network = network
    self.front = front
    self.configuration = configuration
    self.publisher = publisher
    importedSnapshot = setup.imported.map {
      EngineSnapshot.stored(
        $0.state, location: "imported from \($0.source) (read-only)", profile: $0.profile,
        now: clock.now())
    }
    current.withLock {
      $0.environment = setup.environment ?? .demo(setup.platform, profile: setup.profile)
    }
  }

  public static func start(
    _ setup: SessionSetup, place: SessionPlace? = nil, log: RunLog = RunLog()
  ) async throws -> Session {
    let place = try place ?? SessionPlace.virtual()
    let clock = place.clock
    let publisher = SnapshotPublisher()
    log.onAppend { _ in publisher.changed() }
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: setup.appID, accessToken: setup.accessToken,
        processingDelay: setup.processingDelay, definedAttributes: setup.definedAttributes),
      store: place.serverStore, clock: clock,
      eventSink: { event, now in log.append(RunEvent(t: now, body: .server(event))) },
      adoptsFirstApp: place.receiver?.anyApp ?? false)
    var serverURL = "http://127.0.0.1:9"
    var front: (any ServerFront)?
    var simulated: SimulatedTransport?
    // With a remote endpoint the local server stays idle and needs no transport of its own.
    if let receiver = place.receiver {
      guard let network = place.network else { throw SessionError.noNetwork }
      let opened = try await network.openReceiver(for: server, options: receiver)
      serverURL = opened.url
      front = opened
      await server.onWatch { publisher.changed() }
    } else if place.remote == nil && setup.overHTTP {
      guard let network = place.network else { throw SessionError.noNetwork }
      let opened = try await network.openFront(for: server)
      serverURL = opened.url
      front = opened
    } else if place.remote == nil {
      simulated = SimulatedTransport(server: server, clock: clock, latency: setup.networkLatency)
    }
    if place.remote != nil && place.network == nil { throw SessionError.noNetwork }
    let configuration =
      try place.remote
      ?? RegistrationConfigurationBuilder()
      .setApplicationId(setup.appID).setAccessToken(setup.accessToken)
      .setMarketingCloudServerUrl(serverURL)
      .setDelayRegistrationUntilContactKeyIsSet(setup.delayRegistrationUntilContactKeyIsSet)
      .setPlatform(setup.platform).setDebugBuild(setup.debugBuild)
      .setRequestTimeout(setup.requestTimeout).setSDKProfile(setup.profile).build()
    let mode: Mode =
      place.receiver != nil
      ? .receiver : place.remote != nil ? .remote : place.live ? .live : .virtual
    let session = Session(
      setup: setup, mode: mode, clock: clock, server: server, log: log,
      deviceStore: place.deviceStore, simulated: simulated, network: place.network, front: front,
      configuration: configuration, publisher: publisher)
    publisher.start { [weak session] in await session?.snapshot() }
    if mode == .live || mode == .receiver {
      let loop = Task { await server.run() }
      session.current.withLock { $0.serverLoop = loop }
    }
    return session
  }

  /// The configuration the engine runs with (token masked when printed).
  public var engineConfiguration: RegistrationConfiguration { configuration }

  public var storeLocation: String { deviceStore.location }

  /// True when registrations go to a remote endpoint, not the local server.
  public var isRemote: Bool { mode == .remote }

  /// Where registrations go, in words.
  public var destination: String {
    isRemote
      ? configuration.serverURL.absoluteString
      : mode == .receiver
        ? "receiving on \(configuration.serverURL.absoluteString)"
        : setup.overHTTP
          ? "the local server on \(configuration.serverURL.absoluteString)"
          : "the local server (in process)"
  }

  public var engine: RegistrationEngine? { current.withLock { $0.engine } }

  // MARK: Commands

  public func execute(_ command: Command) async throws -> CommandOutcome {
    defer { publisher.changed() }
    if mode == .receiver, case .server = command {
      // Faults work on real apps as on the simulated device.
    } else if mode == .receiver {
      if command == .launch { return .done("receiving on \(configuration.serverURL)") }
      throw SessionError.noDevice(command.description)
    }
    if let imported = setup.imported {
      if command == .launch { return .done("showing the device imported from \(imported.source)") }
      throw SessionError.readOnly(imported.source)
    }
    switch command {
    case .launch:
      if engine != nil { return .done("already running; use restart to kill and relaunch") }
      try await launchEngine()
      return .launched
    case .restart:
      guard let old = engine else { throw SessionError.notLaunched("restart") }
      let loop = current.withLock { $0.engineLoop }
      loop?.cancel()
      await old.shutDown()
      await loop?.value
      try await launchEngine()
      return .done("killed and relaunched: state came back from the store")
    case .foreground, .background:
      guard let engine else { throw SessionError.notLaunched(command.description) }
      try await engine.setAppState(command == .foreground ? .foreground : .background)
      return .done("the app is in the \(command == .foreground ? "foreground" : "background")")
    case .edit(let edit):
      guard let engine else { throw SessionError.notLaunched(command.description) }
      let outcome = try await engine.apply(edit)
      if case .applied = outcome, case .setSystem(let field, let raw) = edit,
        case .success(let value) = SystemFieldValue.parse(field, raw, platform: setup.platform)
      {
        // The OS now reports this value: a restart relaunches with it.
        current.withLock { SystemFieldValue.write(value, to: &$0.environment) }
      }
      return .edit(outcome)
    case .server(let serverCommand):
      if isRemote { throw SessionError.noLocalServer(command.description) }
      try await serverCommand.apply(to: server)
      // Over HTTP, down and up stop and start a real listener; virtual time must not run
      // ahead of it.
      if let front { await front.waitUntil(listening: !(await server.isDown())) }
      let fault = await server.fault
      return .done(fault.map { "server: \($0.summary)" } ?? "server: \(serverCommand.doneText)")
    }
  }

  /// Runs `command` and keeps what came of it, errors included: what a face reports.
  public func run(_ command: Command) async -> CommandResult {
    do {
      return CommandResult(command: command, outcome: .success(try await execute(command)))
    } catch {
      return CommandResult(command: command, outcome: .failure(error))
    }
  }

  private func launchEngine() async throws {
    let (environment, log) = (current.withLock { $0.environment }, self.log)
    guard let transport: any RegistrationTransport = simulated ?? network?.transport() else {
      throw SessionError.noNetwork
    }
    let engine = RegistrationEngine(
      configuration: configuration, store: deviceStore, transport: transport, clock: clock,
      environment: environment,
      makeDeviceID: { [setup] in setup.deviceID ?? UUID().uuidString },
      eventSink: { event in
        log.append(RunEvent(t: event.at, body: .engine(event.event), wireBody: event.wireBody))
      })
    current.withLock { $0.engine = engine }
    try await engine.launch()
    if mode != .virtual {
      let loop = Task { await engine.run() }
      current.withLock { $0.engineLoop = loop }
    }
  }

  // MARK: Time

  /// The session's time: virtual seconds, or the scaled wall clock.
  public var now: Instant { clock.now() }

  /// How fast a live clock runs (0 when paused); 1 for a virtual one, which moves by hand.
  public var rate: Double { (clock as? ScaledClock)?.rate ?? 1 }

  /// Sets a live clock's rate (0 pauses it). False when the clock cannot: a virtual one.
  @discardableResult
  public func setRate(_ rate: Double) -> Bool {
    // A receiver watches real apps: its clock is real time, never paused or sped up.
    guard mode != .receiver, let clock = clock as? ScaledClock else { return false }
    clock.setRate(rate)
    publisher.changed()
    return true
  }

  /// Waits until the session's clock reaches `instant` (demo playback, the shell's `wait`).
  public func sleep(until instant: Instant) async throws {
    try await clock.sleep(until: instant)
  }

  /// Moves virtual time to `target`, doing everything due on the way in order: sends, answers
  /// coming back over the simulated network, and the server's processing.
  public func advance(to target: Instant) async throws {
    guard let clock = clock as? VirtualClock, mode == .virtual else {
      throw SessionError.notVirtual
    }
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
      await simulated.waitForArrivals(log.count(.sending))
      if simulated.answerDueAt != nil { return }
    }
    await engine.settle()
  }

  /// Jumps a live clock to the next deadline of the engine or the local server, whichever
  /// comes first; nil when nothing is scheduled or the clock cannot jump. One rule for the
  /// inspector's `n` and the shell's `jump`.
  public func jumpToNextDeadline() async -> Instant? {
    guard mode != .receiver else { return nil }
    let deadlines = [await engine?.nextDeadline, isRemote ? nil : await server.nextDeadline]
    guard let next = deadlines.compactMap({ $0 }).min(), let clock = clock as? ScaledClock
    else { return nil }
    clock.jump(to: next)
    publisher.changed()
    return next
  }

  // MARK: State

  /// Everything the device holds now.
  public func deviceSnapshot() async throws -> EngineSnapshot? {
    if let importedSnapshot { return importedSnapshot }
    return try await engine?.snapshot()
  }

  /// The device, the local server (bounded) and the clock at one instant.
  public func snapshot() async -> SessionSnapshot {
    let device = try? await deviceSnapshot()
    let server = isRemote ? nil : await server.snapshot()
    let watched = mode == .receiver ? await self.server.watchedDevices(newest: 200) : nil
    let notice = mode == .receiver ? await self.server.adoptionNotice : nil
    return SessionSnapshot(
      device: device, server: server, now: now, rate: rate, watched: watched,
      receiverNotice: notice)
  }

  /// Pushes a fresh snapshot to `watcher` after every change (events, commands, the clock's
  /// controls), coalesced: a burst of changes gives one snapshot. Replaces an earlier watcher.
  public func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    publisher.watch(watcher)
    publisher.changed()
  }

  public func stop() async {
    publisher.stop()
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
