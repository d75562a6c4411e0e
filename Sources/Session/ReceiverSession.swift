import Clocks
import EngagementCore
import EngagementServer
import RegistrationCore
import SessionValues
import Synchronization

/// What a receiver needs: the app its requests must name, where the server keeps what it
/// judges, and how its front listens (port, address, TLS, a tenant to relay to).
/// The tenant a receiver asks (`--tenant`): built by the tool from its file, attached by the
/// session to its server before its front listens, its work run and ended by the session.
public protocol ReceiverTenant: Sendable {
  /// Installs what the server answers for the tenant (its demographics refresh; with a relay,
  /// the read-back queue), and returns the work to run while the receiver lives (the refresh
  /// every 15 minutes, the read-backs); the session cancels and awaits it when it stops.
  func attach(to server: LocalEngagementServer) async -> @Sendable () async -> Void
}

public struct ReceiverSetup: Sendable {
  public var settings: ServerSettings
  /// Where the server keeps what it receives: `--db`, else (the one default of every tool) a
  /// private temporary database, so that waiting registrations cost disk, not memory.
  public var store: ServerStore?
  public var options: ReceiverOptions
  /// Real time: a receiver watches real apps, so its clock is never paused or sped up.
  public var clock: any EngineClock
  public var seed: UInt64
  /// `--tenant`: attached before anything listens (a `PUT /api/demographics` is refused from
  /// the first request), its work owned by the session.
  public var tenant: (any ReceiverTenant)?

  public init(
    settings: ServerSettings, store: ServerStore? = nil, options: ReceiverOptions,
    clock: any EngineClock = SystemClock(), seed: UInt64 = UInt64.random(in: 1...UInt64.max),
    tenant: (any ReceiverTenant)? = nil
  ) {
    self.settings = settings
    self.store = store
    self.options = options
    self.clock = clock
    self.seed = seed
    self.tenant = tenant
  }
}

/// No simulated device: the local server receives (or relays) real apps' registrations and
/// judges them. `regscope --receive` and `regctl serve` both run one.
public final class ReceiverSession: Session {
  public let server: LocalEngagementServer
  public let front: any ServerFront
  public let options: ReceiverOptions
  private let clock: any EngineClock
  private let publisher: SnapshotPublisher
  private let processing: Mutex<Task<Void, Never>?>
  /// The tenant's refresh and read-backs (`--tenant`), nil without one.
  private let tenantWork: Task<Void, Never>?

  init(_ setup: ReceiverSetup, network: any SessionNetwork, log: RunLog) async throws {
    // Every way a receiver is built passes here: off loopback, never the demo's public token
    // (the tools say it first with where the token came from; this holds it for any caller).
    if !LoopbackHost.contains(setup.options.host),
      InputRules.trimmed(setup.settings.accessToken) == SessionSetup().accessToken
    {
      throw SessionError.publicTokenOffLoopback(host: setup.options.host)
    }
    // Real apps can flood a receiver: its screen is refreshed about ten times a second at most.
    let publisher = SnapshotPublisher(minimumInterval: .milliseconds(100))
    log.onAppend { _ in publisher.changed() }
    server = try LocalEngagementServer(
      settings: setup.settings, store: try setup.store ?? ServerStore.temporary(),
      clock: setup.clock, seed: setup.seed, adoptsFirstApp: setup.options.anyApp,
      announcesFindings: true)
    // Its events to the log (which tells the publisher); a device seen, to the screen.
    server.changes.observe { change in
      switch change {
      case .event(let event, let at): log.append(RunEvent(t: at, body: .server(event)))
      case .watched: publisher.changed()
      case .schedule, .stored: break
      }
    }
    // The tenant first: the server knows its demographics' source before anything listens.
    if let work = await setup.tenant?.attach(to: server) {
      tenantWork = Task { await work() }
    } else {
      tenantWork = nil
    }
    do {
      front = try await network.openReceiver(for: server, options: setup.options)
    } catch {
      tenantWork?.cancel()
      await tenantWork?.value
      throw error
    }
    options = setup.options
    clock = setup.clock
    self.publisher = publisher
    processing = Mutex(Task { [server] in await server.run() })
    publisher.start { [weak self] in await self?.snapshot() }
  }

  /// The address apps are pointed at: http(s)://host:port.
  public var url: String { front.url }

  public var destination: String { "receiving on \(front.url)" }

  public var now: Instant { clock.now() }

  public func execute(_ command: Command) async throws -> CommandOutcome {
    defer { publisher.changed() }
    switch command {
    case .launch: return .done("receiving on \(front.url)")
    // Faults work on real apps as on the simulated device.
    case .server(let serverCommand): return try await serverCommand.run(on: server, front: front)
    default: throw SessionError.noDevice(command.description)
    }
  }

  public func fields(of deviceID: String) async -> DeviceFieldStories? {
    await server.fields(of: deviceID)
  }

  /// Read in one turn of the server's actor (`receiverReading`): three reads, one after
  /// another, could show a registration in the counts and not its device, or the reverse.
  public func snapshot() async -> SessionSnapshot {
    let reading = await server.receiverReading(watched: 200)
    return .receiver(
      .init(
        server: reading.server, watched: reading.watched, notice: reading.notice,
        now: reading.now))
  }

  public func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    publisher.watch(watcher)
    publisher.changed()
  }

  public func stop() async {
    publisher.stop()
    tenantWork?.cancel()
    await tenantWork?.value
    let loop = processing.withLock { $0 }
    loop?.cancel()
    await loop?.value
    await front.stop()
    await server.flush()
  }
}
