import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with one handler more, where the HTTP version is still
/// known: an HTTP/1.0 request is answered as HTTP/1.0, and its connection closed after the
/// answer unless it asked for keep-alive (Hummingbird's own channel answers 1.1 and keeps it).
struct HTTP1ServerChannel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let configuration: HTTP1Channel.Configuration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let sync = channel.pipeline.syncOperations
      try sync.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false,
        withOutboundHeaderValidation: false, withEncoderConfiguration: .init())
      try sync.addHandler(MalformedRequestHandler())
      try sync.addHandler(HTTPVersionHandler())
      try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try sync.addHandlers(configuration.additionalChannelHandlers())
      try sync.addHandler(
        HTTPConnectionStateHandler(
          idleTimeout: configuration.idleTimeout.map { .nanoseconds($0.nanoseconds) },
          logger: logger))
      return try NIOAsyncChannel(
        wrappingChannelSynchronously: channel,
        configuration: .init(isOutboundHalfClosureEnabled: true))
    }
  }

  func handle(value asyncChannel: Value, logger: Logger) async {
    await withTaskExecutorPreference(EventLoopTaskExecutor(asyncChannel.channel.eventLoop)) {
      await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
  }
}

extension HTTPServerBuilder {
  /// HTTP/1, with HTTP/1.0 answered as HTTP/1.0 (`HTTP1ServerChannel`).
  static func engagementHTTP1(_ configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
    .init { responder in HTTP1ServerChannel(responder: responder, configuration: configuration) }
  }
}

/// Answers each request in the HTTP version it came in, and closes the connection after an
/// answer whose request did not ask to keep it (HTTP/1.0 without keep-alive, or
/// `Connection: close`).
final class HTTPVersionHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// The requests being answered, oldest first: their version and whether to keep the
  /// connection after.
  private var requests: [(version: HTTPVersion, keepAlive: Bool)] = []

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let head) = unwrapInboundIn(data) {
      requests.append((head.version, head.isKeepAlive))
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
      }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      let request = requests.isEmpty ? nil : requests.removeFirst()
      guard let request, !request.keepAlive else {
        context.write(data, promise: promise)
        return
      }
      let written = promise ?? context.eventLoop.makePromise()
      context.writeAndFlush(data, promise: written)
      written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
  }
}
