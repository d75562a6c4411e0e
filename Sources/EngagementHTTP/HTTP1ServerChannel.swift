import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel, with handlers of ours where NIO's HTTP/1 parts still
/// come as read: the HTTP version and the connection's end (`HTTP1ConversationHandler`), the
/// connection's guards (`ConnectionGuardHandler`) and the registration's fast path
/// (`RegistrationFastPath`). What the fast path answers never reaches the conversion to
/// `HTTPTypes` or Hummingbird's connection state (a tenth of a registration's CPU); so the
/// guards, which see every request, keep the idle limit Hummingbird's state would.
/// Forked from Hummingbird 2.28's `HTTP1Channel`: Package.swift pins that minor, and
/// `HummingbirdForkTests` fails when the framework's pipeline has a step this one lacks.
struct HTTP1ServerChannel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

  let responder: HTTPChannelHandler.Responder
  let configuration: HTTP1Channel.Configuration
  let guards: ConnectionGuards
  /// Plain registrations answered from the event loop (`RegistrationFastPath`).
  let fastPath: RegistrationFastPath.Setup?

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let sync = channel.pipeline.syncOperations
      // The parser's limits as Hummingbird sets them (1,000 headers; NIO's own is 65,534).
      var limits = NIOHTTPDecoderLimitConfiguration()
      limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
      limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
      limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
      try sync.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false,
        withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
        withDecoderLimitConfiguration: limits)
      try sync.addHandler(HTTP1ConversationHandler())
      try sync.addHandler(guards.handler())
      if let fastPath, fastPath.applies { try sync.addHandler(RegistrationFastPath(fastPath)) }
      try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try sync.addHandlers(configuration.additionalChannelHandlers())
      // No idle timeout here: it would not see what the fast path answers (the guards keep it).
      try sync.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
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
    _ configuration: HTTP1Channel.Configuration, guards: ConnectionGuards,
    fastPath: RegistrationFastPath.Setup?
  ) -> HTTPServerBuilder {
    .init { responder in
      HTTP1ServerChannel(
        responder: responder, configuration: configuration, guards: guards, fastPath: fastPath)
    }
  }
}
