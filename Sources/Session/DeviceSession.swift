import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues
import Synchronization

/// A simulated device and the local server on one clock: what `regctl run`, `regctl shell`
/// and the inspector's device layout drive. Its clock is virtual (moved by `advance`) or scaled;
/// its registrations travel in process, over loopback HTTP, or to a remote endpoint
/// (`SessionPlace.route`). It executes the command language, words outcomes once, logs typed
/// events, and pushes a snapshot to its watcher after every change.
public final class DeviceSession: Session {
  public let setup: SessionSetup
  public let route: DeviceRoute
  public let server: LocalEngagementServer
  public let log: RunLog
  let clock: SessionClock
  /// A demo's pace: how fast the scenario walks this session's virtual clock.
  public let pace: DemoPace?
  private let deviceStore: RegistrationStore
  private let simulated: SimulatedTransport?
  private let network: (any SessionNetwork)?
  private let front: (any ServerFront)?
  /// The endpoint, app and SDK this device registers with.
  public let configuration: RegistrationConfiguration
  private let publisher: SnapshotPublisher
  private struct Running {
    var engine: RegistrationEngine?
    var environment: DeviceEnvironment
    var engineLoop: Task<Void, Never>?
    var serverLoop: Task<Void, Never>?
  }
  private let current = Mutex(Running(environment: .demo(.iOS)))

  private init(
    setup: SessionSetup, place: SessionPlace, server: LocalEngagementServer, log: RunLog,
    simulated: SimulatedTransport?, front: (any ServerFront)?,
    configuration: RegistrationConfiguration, publisher: SnapshotPublisher
  ) {
    self.setup = setup
    route = place.route
    clock = place.clock
    pace = place.pace
    self.server = server
    self.log = log
    deviceStore = place.deviceStore
    self.simulated = simulated
    network = place.network
    self.front = front
    self.configuration = configuration
    self.publisher = publisher
    current.withLock {
      $0.environment = setup.environment ?? .demo(setup.platform, profile: setup.profile)
    }
  }

  /// Starts a device session; tests and `SessionFactory` call this, faces go through the
  /// factory.
  public static func start(
    _ setup: SessionSetup, place: SessionPlace? = nil, log: RunLog = RunLog()
  ) async throws -> DeviceSession {
    let place = try place ?? SessionPlace.virtual()
    let publisher = SnapshotPublisher()
    log.onAppend { _ in publisher.changed() }
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: setup.appID, accessToken: setup.accessToken,
        processingDelay: setup.processingDelay, definedAttributes: setup.definedAttributes),
      store: place.serverStore, clock: place.clock.engineClock)
    server.changes.observe { change in
      if case .event(let event, let at) = change {
        log.append(RunEvent(t: at, body: .server(event)))
      }
    }
    var front: (any ServerFront)?
    var simulated: SimulatedTransport?
    let configuration: RegistrationConfiguration
    switch place.route {
    case .inProcess:
      simulated = SimulatedTransport(
        server: server, clock: place.clock.engineClock, latency: setup.networkLatency)
      configuration = try setup.configuration(serverURL: "http://127.0.0.1:9")
    case .loopback:
      guard let network = place.network else { throw SessionError.noNetwork }
      let opened = try await network.openFront(for: server)
      front = opened
      configuration = try setup.configuration(serverURL: opened.url)
    case .remote(let remote):
      // The local server stays idle and needs no transport of its own.
      guard place.network != nil else { throw SessionError.noNetwork }
      configuration = remote
    }
    let session = DeviceSession(
      setup: setup, place: place, server: server, log: log, simulated: simulated, front: front,
      configuration: configuration, publisher: publisher)
    publisher.start { [weak session] in await session?.snapshot() }
    if place.clock.isLive && !session.isRemote {
      let loop = Task { await server.run() }
      session.current.withLock { $0.serverLoop = loop }
    }
    return session
  }

  /// The configuration the engine runs with (token masked when printed).
  public var engineConfiguration: RegistrationConfiguration { configuration }

  public var storeLocation: String { deviceStore.location }

  /// True when registrations go to a remote endpoint, not the local server.
  public var isRemote: Bool {
    if case .remote = route { return true }
    return false
  }

  /// Where registrations go, in words.
  public var destination: String {
    switch route {
    case .remote: configuration.serverURL.absoluteString
    case .loopback: "the local server on \(configuration.serverURL.absoluteString)"
    case .inProcess: "the local server (in process)"
    }
  }

  public var engine: RegistrationEngine? { current.withLock { $0.engine } }

  // MARK: Commands

  public func execute(_ command: Command) async throws -> CommandOutcome {
    defer { publisher.changed() }
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
    case .inbox:
      guard let engine else { throw SessionError.notLaunched(command.description) }
      let (request, result) = try await engine.fetchInbox()
      switch result {
      case .answered(let status, _, _, _):
        return .done("inbox: GET \(request.target) answered \(status)")
      case .transportFailed(let reason):
        return .done("inbox: GET \(request.target) failed: \(reason)")
      }
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
      return try await serverCommand.run(on: server, front: front)
    }
  }

  private func launchEngine() async throws {
    let (environment, log) = (current.withLock { $0.environment }, self.log)
    guard let transport: any RegistrationTransport = simulated ?? network?.transport() else {
      throw SessionError.noNetwork
    }
    let engine = RegistrationEngine(
      configuration: configuration, store: deviceStore, transport: transport,
      clock: clock.engineClock,
      environment: environment,
      makeDeviceID: { [setup] in setup.deviceID ?? UUID().uuidString },
      eventSink: { event in
        log.append(RunEvent(t: event.at, body: .engine(event.event), wireBody: event.wireBody))
      })
    current.withLock { $0.engine = engine }
    try await engine.launch()
    if clock.isLive {
      let loop = Task { await engine.run() }
      current.withLock { $0.engineLoop = loop }
    }
  }

  // MARK: Time

  /// The session's time: virtual seconds, or the scaled wall clock.
  public var now: Instant { clock.engineClock.now() }

  /// How fast a live clock runs (0 when paused); 1 for a virtual one, which moves by hand.
  public var rate: Double {
    if let pace { return pace.rate }
    if case .scaled(let clock, _) = clock { return clock.rate }
    return 1
  }

  /// Sets a live clock's rate (0 pauses it). False when the clock cannot: a virtual one.
  @discardableResult
  public func setRate(_ rate: Double) -> Bool {
    if let pace {
      pace.setRate(rate)
      publisher.changed()
      return true
    }
    guard case .scaled(let clock, _) = clock else { return false }
    clock.setRate(rate)
    publisher.changed()
    return true
  }

  /// Waits until the session's clock reaches `instant` (demo playback, the shell's `wait`).
  public func sleep(until instant: Instant) async throws {
    try await clock.engineClock.sleep(until: instant)
  }

  /// Moves virtual time to `target`, doing everything due on the way in order: sends, answers
  /// coming back over the simulated network, and the server's processing.
  public func advance(to target: Instant) async throws {
    guard case .virtual(let clock) = clock else { throw SessionError.notVirtual }
    while true {
      try await settleInstantSends()
      let engineDue = await engine?.nextDeadline
      let serverDue = await server.nextDeadline
      let answerDue = simulated?.answerDueAt
      guard let next = Instant.earliest(engineDue, serverDue, answerDue), next <= target
      else { break }
      clock.advance(to: max(next, clock.now()))
      if let answerDue, answerDue <= next { await engine?.settle() }
      if let serverDue, serverDue <= next { await server.processDue() }
      if let engineDue, engineDue <= next, let engine { try await engine.tick() }
    }
    clock.advance(to: target)
    await server.flush()
    // A demo's screen follows its clock: each move is a change to show.
    if pace != nil { publisher.changed() }
  }

  /// The next instant something is due: a send, an answer on the simulated wire, the
  /// server's processing.
  public func nextDeadline() async -> Instant? {
    Instant.earliest(
      await engine?.nextDeadline, isRemote ? nil : await server.nextDeadline,
      simulated?.answerDueAt)
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
    let serverDue = isRemote ? nil : await server.nextDeadline
    let next = Instant.earliest(await engine?.nextDeadline, serverDue)
    if let pace, !pace.isFinished {
      // The demo walks there itself, so every check still sees it happen in order.
      guard let next else { return nil }
      pace.skipToNext()
      return max(next, now)
    }
    if case .virtual = clock {
      // A demo that has ended: what it left due (a registration still to process, a send,
      // an answer on the simulated wire) happens when asked for, on its virtual clock.
      guard let due = await nextDeadline() else { return nil }
      let target = max(due, now)
      guard (try? await advance(to: target)) != nil else { return nil }
      publisher.changed()
      return target
    }
    guard let next, case .scaled(let clock, _) = clock else { return nil }
    clock.jump(to: next)
    publisher.changed()
    return next
  }

  // MARK: State

  /// Everything the device holds now; nil before the app is launched.
  public func deviceSnapshot() async throws -> EngineSnapshot? {
    try await engine?.snapshot()
  }

  /// The device, then the local server (bounded), then the clock. Not one instant: the device
  /// and the server are two actors, each read whole in one turn of its own, and a live clock
  /// may move a send between the two turns. The order is what keeps the parts in agreement:
  /// the server answers a registration before the device hears the answer, so whatever the
  /// device shows answered, the server read after it holds; and the clock, read last, is never
  /// earlier than anything either shows.
  public func snapshot() async -> SessionSnapshot {
    let device = try? await deviceSnapshot()
    let server = isRemote ? nil : await server.snapshot()
    return .device(.init(device: device, server: server, now: now, rate: rate))
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
