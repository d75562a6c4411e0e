import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import RegistrationCore

/// What a real app needs besides the registration, and what QA reads about it: the shipped
/// SDKs' other device routes (SDK-FACTS.md), each answered with a harmless, well-formed empty
/// answer and recorded against its device, and the watch's views.
struct DeviceRoutes {
  let server: LocalEngagementServer
  let options: EngagementHTTPServer.Options
  /// The front's rules, built once (`EngagementRoutes.router`).
  let rules: FrontRules
  /// The route's way into the server, as the fast path's: registrations a hop a batch.
  let inbox: RegistrationInbox

  init(server: LocalEngagementServer, options: EngagementHTTPServer.Options, rules: FrontRules) {
    self.server = server
    self.options = options
    self.rules = rules
    inbox = RegistrationInbox(server)
  }

  static let subscriberToken = HTTPFields.Element.Name("X-Subscriber-Token")!
  static let sdkVersion = HTTPFields.Element.Name("X-SDK-Version")!

  /// A path parameter, percent-decoded once (`%20` is a space, `%2F` a slash): device ids are
  /// whatever the app made them.
  static func pathParameter(_ name: String, _ context: EngagementRequestContext) -> String? {
    context.parameters.get(name).map { $0.removingPercentEncoding ?? $0 }
  }

  static func facts(_ request: Request) -> RequestFacts {
    RequestFacts(
      userAgent: request.headers[.userAgent], sdkVersion: request.headers[sdkVersion],
      subscriberToken: request.headers[subscriberToken])
  }

  /// The other routes (SDKRoutes' table): method, path, name, the answer's JSON.
  static let others: [(HTTPRequest.Method, String, String, String)] = SDKRoutes.others.compactMap {
    route in
    HTTPRequest.Method(route.method).map { ($0, route.pattern, route.name, route.answer) }
  }

  /// The registration (S1, S7) and the SDK's other routes, answered here.
  func add(to collection: RouteCollection<EngagementRequestContext>) {
    let (server, options, inbox, rules) = (self.server, self.options, self.inbox, self.rules)
    collection.post(RouterPath(stringLiteral: RegistrationRoute.path)) { request, context in
      await Self.register(
        request, context: context, server: server, inbox: inbox, options: options, rules: rules)
    }
    for (method, path, name, answer) in Self.others {
      collection.on(RouterPath(path), method: method) { request, context -> Response in
        switch await Self.receiveOther(
          name, request, context: context, server: server, rules: rules)
        {
        case .failure(let refusal): return refusal.response
        case .success:
          let bytes = Array(answer.utf8)
          context.exchange.answered(bytes)
          return EngagementRoutes.json(200, bytes)
        }
      }
    }
  }

  struct Refused: Error { var response: Response }

  /// Reads (and drops) what the SDK sent on one of its other routes, so the connection stays
  /// usable, and counts it against its device. The body, or the answer when it is too large.
  static func receiveOther(
    _ name: String, _ request: Request, context: EngagementRequestContext,
    server: LocalEngagementServer, rules: FrontRules
  ) async -> Result<ByteBuffer, Refused> {
    guard let body = await EngagementRoutes.readBody(request, rules) else {
      return .failure(Refused(response: EngagementRoutes.tooLarge(rules, context: context)))
    }
    context.exchange.read(body)
    let inBody = SDKRoutes.deviceInBody.contains(name)
    let bytes = inBody ? Array(body.readableBytesView) : []
    let deviceID =
      pathParameter("deviceId", context) ?? request.uri.queryParameters.get("deviceid")
      ?? request.uri.queryParameters.get("deviceId")
      ?? (inBody ? SDKRoutes.deviceID(inBody: bytes) : nil)
    await server.receiveOther(route: name, deviceID: deviceID, facts: facts(request), body: bytes)
    return .success(body)
  }

  /// A registration, by the front's rules (`FrontRules.registration`), as the fast path takes
  /// one; a fault still answers before any check.
  private static func register(
    _ request: Request, context: EngagementRequestContext, server: LocalEngagementServer,
    inbox: RegistrationInbox, options: EngagementHTTPServer.Options, rules: FrontRules
  ) async -> Response {
    var request = request
    if server.adoptsFirstApp, await server.adoptedApp == nil,
      let body = try? await request.collectBody(upTo: rules.maxBodyBytes)
    {
      context.exchange.read(body)
      // --any-app: the first registration names the app (collectBody keeps what it read).
      _ = await server.adoptIfFirst(
        authorization: request.headers[.authorization],
        payload: try? WireDecoding.payload(from: Data(body.readableBytesView)).get())
    }
    // The token first: a client without it reads no more than a refusal needs (S1).
    let authorization = request.headers[.authorization]
    let refused = EngagementServerCore.authorize(
      authorization, settings: server.validationSettings)
    let read = try? await request.collectBody(upTo: rules.registrationBodyLimit(refused: refused))
    if let read { context.exchange.read(read) }
    // Decoding and checking run here, in parallel across connections; only accepting the
    // registration goes through the server's actor.
    let (validation, closes) = rules.registration(
      authorization: authorization, refused: refused,
      body: read.map { Array($0.readableBytesView) }, settings: server.validationSettings)
    let (answer, token) = await inbox.receive(validation, facts: facts(request))
    let response = await EngagementRoutes.answer(answer, options: options, token: token)
    if case .respond(_, let body, _) = answer { context.exchange.answered(body) }
    return closes ? EngagementRoutes.closingUnread(response, context: context) : response
  }

}
