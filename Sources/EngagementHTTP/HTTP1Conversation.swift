import DequeModule
import EngagementCore
import NIOCore
import NIOHTTP1

/// HTTP/1 as a connection's requests and answers go, in one handler (each handler a request
/// passes costs a cast and a call for every part, both ways):
/// - each request is answered in the HTTP version it came in, and the connection closed after
///   an answer whose request did not ask to keep it (HTTP/1.0 without keep-alive, or
///   `Connection: close`); Hummingbird's own channel answers 1.1 and keeps it;
/// - a request HTTP's parser refuses (a head past 80 KB or 1,000 headers, a broken request
///   line) is answered with a status and a JSON body that says why, then the connection
///   closed: NIO's own handler answers a bare 400 with an empty body, which tells a developer
///   nothing.
///   Bytes that break after a request still being answered (pipelined garbage) get no answer
///   of their own: the requests before are answered, then the connection closed, so no
///   answer goes to the wrong request.
final class HTTP1ConversationHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// The requests read whose answer has not ended, oldest first: their version and whether
  /// to keep the connection after.
  private var requests: Deque<(version: HTTPVersion, keepAlive: Bool)> = []
  /// A request whose head was read and whose end was not: its own bytes broke.
  private var readingRequest = false
  private var refused = false
  /// Close once the requests in flight are answered.
  private var closeAfterAnswers = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    switch unwrapInboundIn(data) {
    case .head(let head):
      requests.append((head.version, head.isKeepAlive))
      readingRequest = true
    case .end: readingRequest = false
    case .body: break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head):
      if let request = requests.first {
        if request.version == .http1_0 { head.version = .http1_0 }
        if !request.keepAlive {
          head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if request.version == .http1_0 {
          head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
      } else {
        context.write(data, promise: promise)
      }
    case .body:
      context.write(data, promise: promise)
    case .end:
      let request = requests.popFirst()
      let closes =
        (request.map { !$0.keepAlive } ?? false) || (closeAfterAnswers && requests.isEmpty)
      guard closes else {
        context.write(data, promise: promise)
        return
      }
      let written = promise ?? context.eventLoop.makePromise()
      context.writeAndFlush(data, promise: written)
      written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parserError = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    guard !refused else { return }
    refused = true
    if readingRequest {
      // The request being read broke (its body's framing): its handler has it, so no second
      // answer is written; the connection goes, once the requests before it are answered (a
      // registration taken but not yet answered would be lost, and sent again).
      if requests.count > 1 {
        requests.removeLast()
        closeAfterAnswers = true
        return
      }
      context.close(promise: nil)
      return
    }
    guard requests.isEmpty else {
      closeAfterAnswers = true
      return
    }
    let (status, body) = Self.answer(parserError)
    var headers = HTTPHeaders()
    for field in FrontRules.answerFields(length: body.count, closes: true) {
      headers.add(name: field.name, value: field.value)
    }
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
      promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }

  static func answer(_ error: HTTPParserError) -> (HTTPResponseStatus, [UInt8]) {
    switch error {
    case .headerOverflow:
      (
        .requestHeaderFieldsTooLarge,
        EngagementServerCore.errorBody(
          "headTooLarge",
          "the request line and headers together pass 80 KB, or there are over 1,000 headers; a long query (such as before=) cannot be read",
          field: nil)
      )
    default:
      (
        .badRequest,
        EngagementServerCore.errorBody(
          "notHTTP", "the request is not HTTP/1.1 this server can read (\(error))", field: nil)
      )
    }
  }
}
