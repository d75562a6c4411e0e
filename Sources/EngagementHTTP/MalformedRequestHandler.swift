import EngagementCore
import NIOCore
import NIOHTTP1

/// Answers a request HTTP's parser refuses (a head past NIO's 80 KB, a broken request line)
/// with a status and a JSON body that says why, then closes: NIO's own handler answers a bare
/// 400 with an empty body, which tells a developer nothing. Bytes that break after a request
/// still being answered (pipelined garbage) get no answer of their own: the request before
/// is answered, then the connection closed, so no answer goes to the wrong request.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Requests read whose answer has not ended.
  private var inFlight = 0
  private var refused = false
  /// Close once the requests in flight are answered.
  private var closeAfterAnswers = false

  /// A request whose head was read and whose end was not: its own bytes broke.
  private var readingRequest = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    switch unwrapInboundIn(data) {
    case .head:
      inFlight += 1
      readingRequest = true
    case .end: readingRequest = false
    case .body: break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .end = unwrapOutboundIn(data) else {
      context.write(data, promise: promise)
      return
    }
    inFlight = max(0, inFlight - 1)
    guard closeAfterAnswers, inFlight == 0 else {
      context.write(data, promise: promise)
      return
    }
    let written = promise ?? context.eventLoop.makePromise()
    context.writeAndFlush(data, promise: written)
    written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
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
      // answer is written; the connection goes.
      context.close(promise: nil)
      return
    }
    guard inFlight == 0 else {
      closeAfterAnswers = true
      return
    }
    let (status, body) = Self.answer(parserError)
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Content-Length", value: String(body.count))
    headers.add(name: "Connection", value: "close")
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
          "the request line and headers together pass 80 KB; a long query (such as before=) cannot be read",
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
