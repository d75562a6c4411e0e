import EngagementCore
import EngagementServer
import HTTPTypes
import Hummingbird
import NIOCore
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

/// Closes a connection whose request body stops moving for `limit`.
final class BodyProgressHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let limit: TimeAmount
  private var timer: Scheduled<Void>?

  init(limit: TimeAmount) { self.limit = limit }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head, .body: arm(context)
    case .end: disarm()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    // An answer given before the body ended (401, 413) closes the connection itself.
    if case .end = unwrapOutboundIn(data) { disarm() }
    context.write(data, promise: promise)
  }

  func handlerRemoved(context: ChannelHandlerContext) { disarm() }

  private func arm(_ context: ChannelHandlerContext) {
    timer?.cancel()
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) {
      context.close(promise: nil)
    }
  }

  private func disarm() {
    timer?.cancel()
    timer = nil
  }
}

/// The server's open connections, shared by every connection's `ConnectionLimitHandler`: each
/// with whether it is idle (no request in progress) and since when.
final class ConnectionCount: Sendable {
  struct Entry {
    var channel: any Channel
    var idleSince: ContinuousClock.Instant?
  }

  private let entries = Mutex([ObjectIdentifier: Entry]())

  /// Admits `channel`; past `limit`, closes the connection idle longest to make room, or, if
  /// none is idle, refuses this one.
  func admit(_ channel: any Channel, limit: Int) -> Bool {
    let (admitted, evicted): (Bool, (any Channel)?) = entries.withLock { entries in
      var evicted: (any Channel)?
      if entries.count >= limit {
        guard
          let oldest = entries.filter({ $0.value.idleSince != nil })
            .min(by: { $0.value.idleSince! < $1.value.idleSince! })
        else { return (false, nil) }
        evicted = oldest.value.channel
        entries.removeValue(forKey: oldest.key)
      }
      entries[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now)
      return (true, evicted)
    }
    evicted?.close(promise: nil)
    return admitted
  }

  func setIdle(_ channel: any Channel, _ idle: Bool) {
    entries.withLock { $0[ObjectIdentifier(channel)]?.idleSince = idle ? .now : nil }
  }

  func remove(_ channel: any Channel) {
    _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }
}

/// Counts the server's open connections; past the limit the one idle longest makes room, so
/// a flood of connections that send nothing cannot keep a real app out.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let connections: ConnectionCount
  private let limit: Int

  init(connections: ConnectionCount, limit: Int) {
    self.connections = connections
    self.limit = limit
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if !connections.admit(context.channel, limit: limit) { context.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) { connections.remove(context.channel) }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) { connections.setIdle(context.channel, false) }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { connections.setIdle(context.channel, true) }
    context.write(data, promise: promise)
  }
}

/// A `Content-Length` past the body limit is answered 413 at once, before any of it is read,
/// and the connection closed.
struct DeclaredLengthMiddleware: RouterMiddleware {
  typealias Context = EngagementRequestContext
  let limit: Int

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let declared = request.headers[.contentLength],
      declared.utf8.allSatisfy({ (48...57).contains($0) }), !declared.isEmpty
    else { return try await next(request, context) }
    // All digits: one too long for an Int is past any limit too.
    let length = Int(declared) ?? .max
    guard length > limit else { return try await next(request, context) }
    return EngagementRoutes.closingUnread(
      EngagementRoutes.json(
        413,
        EngagementServerCore.errorBody(
          "bodyTooLarge",
          "the body would be \(declared) bytes; this server takes at most \(limit)", field: nil)),
      context: context)
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
