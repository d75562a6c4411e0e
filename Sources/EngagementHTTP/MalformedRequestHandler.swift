import EngagementCore
import NIOCore
import NIOHTTP1

/// Answers a request HTTP's parser refuses (a head past NIO's 80 KB, a broken request line)
/// with a status and a JSON body that says why, then closes: NIO's own handler answers a bare
/// 400 with an empty body, which tells a developer nothing. A parse error in the middle of an
/// answer only closes the connection, as there is no clean place to put a second one.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private var answering = false
  private var refused = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head: answering = true
    case .end: answering = false
    case .body: break
    }
    context.write(data, promise: promise)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parserError = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    guard !refused else { return }
    refused = true
    guard !answering else {
      context.close(promise: nil)
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
