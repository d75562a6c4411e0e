import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with a handler more where the HTTP version is still
/// known (`HTTP1ConversationHandler`), and the registration's fast path
/// (`RegistrationFastPath`).
struct HTTP1ServerChannel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let configuration: HTTP1Channel.Configuration
  /// Plain registrations answered from the event loop (`RegistrationFastPath`).
  let fastPath: RegistrationFastPath.Setup?

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let sync = channel.pipeline.syncOperations
      try sync.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false,
        withOutboundHeaderValidation: false, withEncoderConfiguration: .init())
      try sync.addHandler(HTTP1ConversationHandler())
      try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try sync.addHandlers(configuration.additionalChannelHandlers())
      try sync.addHandler(
        HTTPConnectionStateHandler(
          idleTimeout: configuration.idleTimeout.map { .nanoseconds($0.nanoseconds) },
          logger: logger))
      if let fastPath, fastPath.applies { try sync.addHandler(RegistrationFastPath(fastPath)) }
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
  static func engagementHTTP1(
    _ configuration: HTTP1Channel.Configuration, fastPath: RegistrationFastPath.Setup?
  ) -> HTTPServerBuilder {
    .init { responder in
      HTTP1ServerChannel(responder: responder, configuration: configuration, fastPath: fastPath)
    }
  }
}
