import Clocks
import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import RegistrationCore
import ServiceLifecycle
import Synchronization
import SystemCalls

/// The HTTP front of the local Engagement server (SPEC S1-S7), on 127.0.0.1 by default.
/// While the server is "down" (S7) it really stops listening, so clients see connection
/// refused; when the fault ends it listens again on the same port.
public final class EngagementHTTPServer: Sendable {
  public struct Options: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 0
    /// Larger bodies get 413.
    public var maxBodyBytes = 1 << 20
    /// How long a "hang" fault holds a request before answering 504.
    public var hangSeconds: Double = 120
    /// Relay device requests to this tenant instead of answering them here (faults still
    /// answer first).
    public var upstream: Upstream?
    /// Serve https with this certificate (PEM files), for apps that require it.
    public var tls: ServerTLS?
    /// Idle, body-progress and connection limits.
    public var limits = ConnectionLimits()
    /// Told every device exchange, once its answer has gone (`--har`).
    public var capture: (@Sendable (CapturedExchange) -> Void)?
    /// Names `Host` may carry besides IP addresses and localhost (`--host-name`).
    public var hostNames: [String] = []
    /// Plain registrations answered from the event loop (`RegistrationFastPath`); off, every
    /// request takes Hummingbird's full path (the tests compare the two).
    public var fastPath = true

    public init() {}
  }

  private struct Listener {
    var group: ServiceGroup
    var task: Task<Void, Never>
  }

  private struct State {
    var port: Int?
    var listener: Listener?
    /// True from the moment the port accepts until it refuses again; what `isListening`
    /// reports (the listener handle goes away earlier, when stopping starts).
    var accepting = false
    /// While down: a socket bound to the port that never listens. Connections are refused,
    /// and no other server can be given the port meanwhile.
    var placeholder: Int32?
    var supervisor: Task<Void, Never>?
  }

  public let server: LocalEngagementServer
  public let options: Options
  /// The device exchanges, as they went over the wire.
  public let recorder: ExchangeRecorder
  private let state = Mutex(State())
  /// Connections open now, counted against `limits.connections`.
  private let openConnections = ConnectionCount()
  private let listenerChanged = ChangeSignal()
  private let fastAnswers = RegistrationFastPath.Setup.Answers()

  /// Registrations answered on the fast path (`RegistrationFastPath`) since the start.
  public var fastPathAnswers: Int { fastAnswers.count.load(ordering: .relaxed) }
  private let logger: Logger = {
    var logger = Logger(label: "regscope.engagement-server") { _ in SwiftLogNoOpLogHandler() }
    logger.logLevel = .critical
    return logger
  }()

  public init(server: LocalEngagementServer, options: Options = Options()) {
    self.server = server
    self.options = options
    recorder = ExchangeRecorder(sink: options.capture)
  }

  /// The port it listens on (after `start`).
  public var port: Int? { state.withLock { $0.port } }

  /// Whether connections are accepted right now (false while a "down" fault holds).
  public var isListening: Bool { state.withLock { $0.accepting } }

  /// Waits until the front is (or is not) listening: after `server down`, before expecting
  /// a refused connection.
  public func waitUntil(listening: Bool) async {
    while !Task.isCancelled {
      let generation = listenerChanged.generation
      if isListening == listening { return }
      await listenerChanged.wait(after: generation)
    }
  }

  /// Starts listening and returns the port. Throws when the address cannot be bound.
  @discardableResult
  public func start() async throws -> Int {
    let port = try await listen()
    let supervisor = Task { await self.superviseDownFaults() }
    state.withLock { $0.supervisor = supervisor }
    return port
  }

  /// Stops listening for good.
  public func stop() async {
    let supervisor = state.withLock { state in
      defer { state.supervisor = nil }
      return state.supervisor
    }
    supervisor?.cancel()
    await supervisor?.value
    // Answers already under way are finished (a QA run that ends on a registration must not
    // cut that registration's 201), within a bound: a hang fault or a relayed call is cut.
    await stopListening(graceful: true, holdPort: false, within: .seconds(2))
    // A registration the fast path took is received before the server stops, as a handler's.
    await fastAnswers.settle(within: .seconds(2))
    if let held = state.withLock({ state -> Int32? in
      defer { state.placeholder = nil }
      return state.placeholder
    }) {
      SystemCalls.close(held)
    }
  }

  // MARK: Listening

  private func listen() async throws -> Int {
    let requested = state.withLock { $0.port } ?? options.port
    if let placeholder = state.withLock({ state -> Int32? in
      defer { state.placeholder = nil }
      return state.placeholder
    }) {
      SystemCalls.close(placeholder)
    }
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let limits = options.limits
    let open = openConnections
    // Only the relay asks whether its app has gone (`ClientGoneHandler`).
    let relays = options.upstream != nil
    let http1 = HTTP1Channel.Configuration(
      additionalChannelHandlers: relays ? [ClientGoneHandler()] : [any RemovableChannelHandler]())
    let guards = ConnectionGuards(connections: open, limits: limits)
    let fastPath =
      options.fastPath
      ? RegistrationFastPath.Setup(
        server: server, recorder: recorder, options: options, answers: fastAnswers) : nil
    let failure = Mutex<(any Error)?>(nil)
    let app = Application(
      router: EngagementRoutes.router(server: server, options: options, recorder: recorder),
      server: try options.tls?.serverBuilder(http1, guards: guards, fastPath: fastPath)
        ?? .engagementHTTP1(http1, guards: guards, fastPath: fastPath),
      configuration: .init(address: .hostname(options.host, port: requested)),
      onServerRunning: { channel in
        portContinuation.yield(channel.localAddress?.port ?? requested)
      },
      logger: logger)
    var configuration = ServiceGroupConfiguration(
      services: [app], gracefulShutdownSignals: [], logger: logger)
    // A client that keeps a connection open must not hold a stop (or a "down") for long.
    configuration.maximumGracefulShutdownDuration = .seconds(1)
    // No limit on the cancellation that follows: past its limit ServiceGroup ends the whole
    // process with a fatal error, which a loaded machine reached in the tests. Cancelling
    // closes the channels, which NIO always finishes.
    configuration.maximumCancellationDuration = nil
    let group = ServiceGroup(configuration: configuration)
    let task = Task {
      do {
        try await group.run()
      } catch {
        failure.withLock { $0 = error }
      }
      portContinuation.finish()
    }
    for await port in ports {
      state.withLock {
        $0.port = port
        $0.listener = Listener(group: group, task: task)
        $0.accepting = true
      }
      listenerChanged.fire()
      return port
    }
    let error = failure.withLock { $0 }
    // The socket's own error in words, not NIO's description of the call that failed.
    let reason =
      (error as? IOError).map { SystemCalls.describeListenError($0.errnoCode) }
      ?? error.map { "\($0)" } ?? "the server stopped before it listened"
    throw ServerStartError(address: "\(options.host):\(requested)", reason: reason)
  }

  /// Stops accepting connections. Graceful: requests under way are answered first, for at most
  /// `within` (then cut); `holdPort` keeps the port refused but ours (the "down" fault).
  private func stopListening(
    graceful: Bool, holdPort: Bool = true, within: Duration = .seconds(30)
  ) async {
    let listener = state.withLock { state in
      defer { state.listener = nil }
      return state.listener
    }
    guard let listener else { return }
    if graceful {
      await listener.group.triggerGracefulShutdown()
      let cut = Task {
        try await Task.sleep(for: within)
        listener.task.cancel()
      }
      await listener.task.value
      cut.cancel()
    } else {
      listener.task.cancel()
    }
    await listener.task.value
    // The service returns before the kernel has closed the listening socket; until it has,
    // a client still connects (and hangs) instead of being refused. "Down" means refused.
    if let port = self.port {
      await Self.waitUntilRefused(host: options.host, port: port)
      if graceful, holdPort, let held = Self.holdPort(host: options.host, port: port) {
        state.withLock { $0.placeholder = held }
      }
    }
    state.withLock { $0.accepting = false }
    listenerChanged.fire()
  }

  /// Binds the port without listening: the kernel refuses connections to it, and it stays
  /// ours until the server listens again.
  static func holdPort(host: String, port: Int) -> Int32? {
    SystemCalls.holdPort(host: host, port: port)
  }

  /// Tries to connect until the port refuses, for at most two seconds.
  static func waitUntilRefused(host: String, port: Int) async {
    for _ in 0..<200 {
      if !SystemCalls.connects(host: host, port: port) { return }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Follows the server's fault: stops listening while it is down, listens again after.
  private func superviseDownFaults() async {
    let schedule = server.changes.signal(.schedule)
    while !Task.isCancelled {
      let generation = schedule.generation
      let down = await server.isDown()
      let listening = state.withLock { $0.listener != nil }  // started, not yet stopping
      if down && listening {
        await stopListening(graceful: true)
      } else if !down && !listening {
        _ = try? await listen()
      }
      let until = down ? await server.fault?.until : nil
      await server.clock.sleep(until: until, orUntil: schedule, movesPast: generation)
    }
  }
}

public struct ServerStartError: Error, CustomStringConvertible {
  public var address: String
  public var reason: String
  public var description: String { "cannot listen on \(address): \(reason)" }
}
