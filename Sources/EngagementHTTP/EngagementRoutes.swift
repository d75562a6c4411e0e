import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import RegistrationCore

/// Hummingbird's request context, plus the connection: an answer given before the body was
/// read must close it, or the unread body holds the socket open for ever.
struct EngagementRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel
  /// What a device route tells the capture of its exchange (`ExchangeNotes`).
  let exchange = ExchangeNotes()

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}

/// The routes of the local Engagement server (S1-S7) and of its `/api` views and controls.
enum EngagementRoutes {
  /// The views' page size when `limit` is not given, and the most one page holds.
  static let defaultLimit = 100
  static let largestLimit = 1000

  /// The front: the device routes (local, or the relay chosen at start), the API's views,
  /// and its controls behind the app's token.
  static func router(
    server: LocalEngagementServer, options: EngagementHTTPServer.Options,
    recorder: ExchangeRecorder
  ) -> Router<EngagementRequestContext> {
    let router = Router(context: EngagementRequestContext.self)
    let allowed = AllowedMethods()
    let rules = FrontRules(options)
    router.add(middleware: FrontRulesMiddleware(rules: rules))
    router.add(middleware: JSONErrorMiddleware(allowed: allowed))
    // Every device exchange is recorded as it went over the wire (the API's HAR view, --har).
    let device = RouteCollection(context: EngagementRequestContext.self)
      .add(
        middleware: CaptureMiddleware(
          recorder: recorder, rules: rules, clock: server.clock,
          routesNoteBodies: options.upstream == nil))
    if let upstream = options.upstream {
      RelayRoutes(server: server, upstream: upstream, options: options, rules: rules).add(
        to: device)
    } else {
      DeviceRoutes(server: server, options: options, rules: rules).add(to: device)
    }
    router.addRoutes(device)
    router.addRoutes(APIViewRoutes(server: server, recorder: recorder).collection, atPath: "api")
    router.addRoutes(
      ControlRoutes(server: server, options: options, rules: rules).collection, atPath: "api")
    router.addRoutes(BundleRoutes(server: server, recorder: recorder).collection, atPath: "api")
    router.get("openapi.json") { _, _ in
      json(200, Array(OpenAPIDocument.json(appID: server.validationSettings.appID).utf8))
    }
    allowed.learn(router)
    return router
  }

  /// The server's answer as a response; `token` is the subscriber token a registration was
  /// given.
  static func answer(
    _ answer: ServerAnswer, options: EngagementHTTPServer.Options, token: String? = nil
  ) async -> Response {
    switch answer {
    case .respond(let status, let body, let retryAfter):
      return json(status, body, retryAfter: retryAfter, token: token)
    case .hang:
      try? await Task.sleep(for: hangDelay(options))
      return json(504, hungBody)
    case .drop, .refuse:
      // Headers may go out, but the body never completes: the client sees a dropped
      // connection, not an answer.
      return Response(status: .ok, body: ResponseBody { _ in throw DroppedConnection() })
    }
  }

  // MARK: Helpers

  /// The whole body, or nil when it is larger than the server takes (`FrontRules`).
  static func readBody(_ request: Request, _ rules: FrontRules) async -> ByteBuffer? {
    var request = request
    return try? await request.collectBody(upTo: rules.maxBodyBytes)
  }

  /// The 413 of a body found too large as it was read, in the front's one wording.
  static func tooLarge(_ rules: FrontRules, context: EngagementRequestContext) -> Response {
    closingUnread(json(413, rules.tooLargeBody()), context: context)
  }

  /// Answers, then closes the connection: the request's body was not read, and a client that
  /// asked to close would otherwise keep the socket for ever. The output is shut at once (the
  /// client sees the answer end); the connection is closed a second later, once the client
  /// has had time to read it.
  static func closingUnread(_ response: Response, context: EngagementRequestContext)
    -> Response
  {
    var response = response
    response.headers[.connection] = "close"
    let channel = context.channel
    let body = response.body
    response.body = ResponseBody(contentLength: body.contentLength) { writer in
      try await body.write(writer)
      channel.eventLoop.execute { closeUnread(channel) }
    }
    return response
  }

  /// Shuts the output at once (the client sees the answer end) and closes the connection a
  /// second later, once the client has had time to read it: closed at once, the bytes it
  /// still sends would reset the connection, and its answer with it.
  static func closeUnread(_ channel: any Channel) {
    channel.close(mode: .output, promise: nil)
    channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
  }

  /// A JSON answer, its fields as every path writes them (`FrontRules.answerFields`;
  /// `closingUnread` adds `Connection: close` last, as the list puts it).
  static func json(
    _ status: Int, _ body: [UInt8], retryAfter: Double? = nil, token: String? = nil
  ) -> Response {
    Response(
      status: HTTPResponse.Status(code: status),
      headers: HTTPFields(
        answer: FrontRules.answerFields(length: body.count, retryAfter: retryAfter, token: token)),
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// A hang fault's late answer, and how late: a delay that is not a number of seconds a
  /// timer can take is the default's.
  static let hungBody = EngagementServerCore.errorBody("hung", "injected fault: hang", field: nil)
  static func hangDelay(_ options: EngagementHTTPServer.Options) -> Duration {
    let seconds = options.hangSeconds
    return .seconds(seconds.isFinite ? min(max(seconds, 0), 86_400) : 120)
  }
}

/// A `drop` fault: the body stream fails after the headers went out.
struct DroppedConnection: Error {}
