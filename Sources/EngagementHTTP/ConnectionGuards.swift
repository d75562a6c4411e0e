import EngagementCore
import EngagementServer
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// The time limits and the connection limit every connection to the server lives under, so a
/// client that sends nothing, half a request, or a body a byte at a time cannot hold a
/// socket for ever, and a flood of connections cannot starve a real app.
public struct ConnectionLimits: Sendable {
  /// A connection with no request in progress is closed after this long: keep-alive idle,
  /// and the wait for a request's head (nothing sent, or half the headers).
  public var idle: Duration = .seconds(15)
  /// While a request's body is arriving, the longest gap between two of its pieces: progress,
  /// not the whole transfer, so a slow but moving upload is not cut.
  public var bodyProgress: Duration = .seconds(15)
  /// Connections open at once. One more makes the connection idle longest close; when none
  /// is idle, the new one is closed the moment it is accepted.
  public var connections = 1_024

  public init() {}
}

extension Duration {
  var timeAmount: TimeAmount { .nanoseconds(Int64((self / .nanoseconds(1)).rounded())) }
}

/// The server's open connections, shared by every connection's `ConnectionGuardHandler`: each
/// with whether it is idle (no request in progress) and since when. A connection marks itself
/// busy or idle in its own atomic, without the shared lock, which only admission takes.
final class ConnectionCount: Sendable {
  /// One connection's idle time: the uptime in nanoseconds it went idle at, or -1 while a
  /// request is in progress.
  final class Idle: Sendable {
    let since = Atomic<Int64>(Int64(NIODeadline.now().uptimeNanoseconds))

    func set(_ idle: Bool) {
      since.store(idle ? Int64(NIODeadline.now().uptimeNanoseconds) : -1, ordering: .relaxed)
    }
  }

  struct Entry {
    var channel: any Channel
    var idle: Idle
  }

  private let entries = Mutex([ObjectIdentifier: Entry]())

  /// Admits `channel`; past `limit`, closes the connection idle longest to make room, or, if
  /// none is idle, refuses this one. The admitted connection's idle state, to keep.
  func admit(_ channel: any Channel, limit: Int) -> Idle? {
    let idle = Idle()
    let (admitted, evicted): (Bool, (any Channel)?) = entries.withLock { entries in
      var evicted: (any Channel)?
      if entries.count >= limit {
        let oldest = entries.compactMap { key, entry -> (ObjectIdentifier, Entry, Int64)? in
          let since = entry.idle.since.load(ordering: .relaxed)
          return since < 0 ? nil : (key, entry, since)
        }.min { $0.2 < $1.2 }
        guard let oldest else { return (false, nil) }
        evicted = oldest.1.channel
        entries.removeValue(forKey: oldest.0)
      }
      entries[ObjectIdentifier(channel)] = Entry(channel: channel, idle: idle)
      return (true, evicted)
    }
    evicted?.close(promise: nil)
    return admitted ? idle : nil
  }

  func remove(_ channel: any Channel) {
    _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }
}

/// What every connection's `ConnectionGuardHandler` is made from.
struct ConnectionGuards: Sendable {
  let connections: ConnectionCount
  let limits: ConnectionLimits

  func handler() -> ConnectionGuardHandler {
    ConnectionGuardHandler(
      connections: connections, limit: limits.connections, idleLimit: limits.idle.timeAmount,
      bodyProgress: limits.bodyProgress.timeAmount)
  }
}

/// The guards every connection lives under, in one handler (each handler a request passes
/// costs a cast and a call for every part, both ways). It sits before the registration's fast
/// path, so it sees every request, whichever path answers it:
/// - the connection limit: past it, the connection idle longest makes room, so a flood of
///   connections that send nothing cannot keep a real app out (`ConnectionCount`);
/// - idleness: a connection with no request in progress for `idleLimit` (between requests,
///   or waiting for a head that does not come) is closed;
/// - the body's progress: a connection whose request body stops moving for `bodyProgress` is
///   closed. Progress is a time kept on each piece; one timer a connection checks it, armed
///   when a request starts and again only while a body is still arriving, so a busy
///   connection schedules a timer once a `bodyProgress`, not on every piece.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let connections: ConnectionCount
  private let limit: Int
  private var idle: ConnectionCount.Idle?
  private let idleLimit: TimeAmount
  private let bodyProgress: TimeAmount
  private var timer: Scheduled<Void>?
  private var idleTimer: Scheduled<Void>?
  /// Requests whose head was read and whose answer has not ended.
  private var inProgress = 0
  /// When the last request in progress was answered (or the connection came). Times are the
  /// event loop's, which its timers keep too (and a test's loop keeps virtually).
  private var idleSince = NIODeadline.now()
  /// A request's body is arriving: from its head to its end, or to an answer given first.
  private var reading = false
  private var lastProgress = NIODeadline.now()

  init(
    connections: ConnectionCount, limit: Int, idleLimit: TimeAmount, bodyProgress: TimeAmount
  ) {
    self.connections = connections
    self.limit = limit
    self.idleLimit = idleLimit
    self.bodyProgress = bodyProgress
  }

  func handlerAdded(context: ChannelHandlerContext) {
    idle = connections.admit(context.channel, limit: limit)
    guard idle != nil else {
      context.close(promise: nil)
      return
    }
    idleSince = context.eventLoop.now
    lastProgress = context.eventLoop.now
    armIdle(context, in: idleLimit)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    connections.remove(context.channel)
    timer?.cancel()
    timer = nil
    idleTimer?.cancel()
    idleTimer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      inProgress += 1
      idle?.set(false)
      progressed(context)
    case .body: progressed(context)
    case .end: reading = false
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) {
      inProgress = max(0, inProgress - 1)
      if inProgress == 0 {
        // An answer given before the body ended (401, 413) closes the connection itself. An
        // answer to an earlier, pipelined request leaves the body being read watched.
        reading = false
        idle?.set(true)
        idleSince = context.eventLoop.now
        if idleTimer == nil { armIdle(context, in: idleLimit) }
      }
    }
    context.write(data, promise: promise)
  }

  private func progressed(_ context: ChannelHandlerContext) {
    reading = true
    lastProgress = context.eventLoop.now
    if timer == nil { arm(context, in: bodyProgress) }
  }

  private func arm(_ context: ChannelHandlerContext, in delay: TimeAmount) {
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
      self.timer = nil
      self.check(context)
    }
  }

  /// Closes when the body has been still for `bodyProgress`; waits out the rest otherwise.
  /// Between requests no timer runs: the next head arms one.
  private func check(_ context: ChannelHandlerContext) {
    guard reading else { return }
    let still = context.eventLoop.now - lastProgress
    guard still < bodyProgress else {
      context.close(promise: nil)
      return
    }
    arm(context, in: bodyProgress - still)
  }

  /// Closes the connection once no request has been in progress for `idleLimit`. One timer
  /// a connection, moved on when it fires early, not one scheduled on every answer.
  private func armIdle(_ context: ChannelHandlerContext, in delay: TimeAmount) {
    idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
      self.idleTimer = nil
      // A request in progress re-arms the timer when it is answered.
      guard self.inProgress == 0 else { return }
      let quiet = context.eventLoop.now - self.idleSince
      if quiet >= self.idleLimit {
        context.close(promise: nil)
      } else {
        self.armIdle(context, in: self.idleLimit - quiet)
      }
    }
  }
}

/// Tells a request's handler when its client has gone: the end of its input (an SDK never
/// half-closes, so EOF means it gave up) or the connection closing. The relay abandons the
/// tenant call then. Hummingbird's own channel does not cancel a handler when its client goes.
final class ClientGoneHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  private static let gone = Mutex([ObjectIdentifier: EventLoopPromise<Void>]())

  /// Completes when `channel`'s client has gone; nil for a channel without this handler.
  static func future(for channel: any Channel) -> EventLoopFuture<Void>? {
    gone.withLock { $0[ObjectIdentifier(channel)]?.futureResult }
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let promise = context.eventLoop.makePromise(of: Void.self)
    Self.gone.withLock { $0[ObjectIdentifier(context.channel)] = promise }
  }

  func handlerRemoved(context: ChannelHandlerContext) { finish(context.channel) }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .inputClosed = event as? ChannelEvent { finish(context.channel) }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    finish(context.channel)
    context.fireChannelInactive()
  }

  private func finish(_ channel: any Channel) {
    Self.gone.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }?.succeed()
  }
}
