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
  /// Connections open at once; one more is closed the moment it is accepted.
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

/// The server's open connections, shared by every connection's `ConnectionLimitHandler`.
final class ConnectionCount: Sendable {
  let open = Mutex(0)
}

/// Counts the server's open connections; one past the limit is closed at once.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  private let open: ConnectionCount
  private let limit: Int
  private var counted = false

  init(open: ConnectionCount, limit: Int) {
    self.open = open
    self.limit = limit
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let admitted = open.open.withLock { count in
      count += 1
      return count <= limit
    }
    counted = true
    if !admitted { context.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if counted { open.open.withLock { $0 -= 1 } }
    counted = false
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
