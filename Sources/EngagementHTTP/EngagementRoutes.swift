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

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}

/// The routes of the local Engagement server (S1-S7) and of its `/api` views and controls.
enum EngagementRoutes {
  /// Every path and the methods it answers: a known path with another method gets 405 and
  /// this list in `Allow`.
  static let methods: [String: [HTTPRequest.Method]] = [
    "/device/v1/registration": [.post], "/api/contacts": [.get], "/api/devices": [.get],
    "/api/registrations": [.get], "/api/stats": [.get], "/api/demographics": [.put],
    "/api/faults": [.post, .delete], "/openapi.json": [.get],
  ]

  /// The methods a path answers, for a 405's `Allow`: the fixed paths, and the SDK's device
  /// routes and the timeline, whose paths carry parameters (`:appId` matches one segment).
  static func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
    if let fixed = methods[path] { return fixed }
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    let patterns =
      DeviceRoutes.others.map { ($0.0, $0.1) } + [
        (HTTPRequest.Method.get, "api/devices/:deviceID/registrations")
      ]
    let allowed = patterns.filter { _, pattern in
      let parts = pattern.split(separator: "/")
      return parts.count == segments.count
        && zip(parts, segments).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
    }.map(\.0)
    return allowed.isEmpty ? nil : allowed
  }

  /// The views' page size when `limit` is not given, and the most one page holds.
  static let defaultLimit = 100
  static let largestLimit = 1000

  static func router(server: LocalEngagementServer, options: EngagementHTTPServer.Options)
    -> Router<EngagementRequestContext>
  {
    let router = Router(context: EngagementRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: DeclaredLengthMiddleware(limit: options.maxBodyBytes))

    router.post("device/v1/registration") { request, context in
      if let upstream = options.upstream {
        return await DeviceRoutes.relayRegistration(
          request, context: context, server: server, upstream: upstream, options: options)
      }
      return await register(request, context: context, server: server, options: options)
    }
    router.get("api/contacts") { request, _ -> Response in
      let query: (limit: Int, before: String?)
      do throws(QueryProblem) { query = try pageQuery(request) } catch { return error.response }
      do throws(UnknownCursor) {
        let page = try await server.contactsPage(limit: query.limit, before: query.before)
        var devices: [String: [String]] = [:]
        for contact in page.items { devices[contact.key] = await server.devices(of: contact.key) }
        return json(200, ServerAPIViews.encode(ServerAPIViews.contacts(page, devices: devices)))
      } catch {
        return unknownCursor(error.cursor)
      }
    }
    router.get("api/devices") { request, _ -> Response in
      let query: (limit: Int, before: String?)
      do throws(QueryProblem) { query = try pageQuery(request) } catch { return error.response }
      do throws(UnknownCursor) {
        let page = try await server.devicesPage(limit: query.limit, before: query.before)
        let watched = await server.watchedDevices(page.items.map(\.deviceID))
        // The first page also lists the devices still waiting for processing.
        let awaiting =
          query.before == nil ? await server.watchedAwaitingProcessing(limit: query.limit) : []
        return json(
          200,
          ServerAPIViews.encode(ServerAPIViews.devices(page, watched: watched, awaiting: awaiting)))
      } catch {
        return unknownCursor(error.cursor)
      }
    }
    router.get("api/registrations") { request, _ -> Response in
      let query: (limit: Int, before: String?)
      do throws(QueryProblem) { query = try pageQuery(request) } catch { return error.response }
      var before: Int?
      if let text = query.before {
        // All digits but past Int: before everything there is, the newest page.
        let huge = text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard let id = Int(text) ?? (huge ? Int.max : nil), id >= 0 else {
          return json(
            400,
            EngagementServerCore.errorBody(
              "invalidQuery",
              "before must be a registration id (the next of the page before); got \"\(TerminalText.escaped(text))\"",
              field: "before"))
        }
        before = id
      }
      let page = await server.registrationsPage(limit: query.limit, before: before)
      return json(200, ServerAPIViews.encode(ServerAPIViews.registrations(page)))
    }
    router.get("api/stats") { _, _ in
      let overview = await server.overview()
      return json(
        200,
        ServerAPIViews.encode(
          ServerAPIViews.stats(
            overview.stats, settings: overview.settings, fault: overview.fault)))
    }
    router.put("api/demographics") { request, context -> Response in
      if let refusal = refuseWithoutToken(request, context: context, server: server) {
        return refusal
      }
      guard let body = await readBody(request, options) else {
        return tooLarge(options, context: context)
      }
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
          as? [String: Any], object.keys.contains("attributes")
      else {
        return json(
          400,
          EngagementServerCore.errorBody(
            "invalidBody", "expected {\"attributes\": [\"NAME\", ...]} (or null to accept all)",
            field: "attributes"))
      }
      let names: Set<String>?
      if object["attributes"] is NSNull {
        names = nil
      } else if let list = object["attributes"] as? [String] {
        names = Set(list.map(InputRules.trimmed).filter { !$0.isEmpty })
      } else {
        return json(
          400,
          EngagementServerCore.errorBody(
            "invalidBody", "attributes must be an array of strings, or null",
            field: "attributes"))
      }
      try await server.defineAttributes(names)
      return json(200, ServerAPIViews.encode(["attributes": names?.sorted()]))
    }
    router.post("api/faults") { request, context -> Response in
      if let refusal = refuseWithoutToken(request, context: context, server: server) {
        return refusal
      }
      guard let body = await readBody(request, options) else {
        return tooLarge(options, context: context)
      }
      do throws(FaultRequest.Invalid) {
        let fault = try FaultRequest.parse(
          Array(body.readableBytesView), now: server.clock.now())
        await server.setFault(fault)
        return json(200, ServerAPIViews.encode(["fault": fault.summary]))
      } catch {
        return json(
          400, EngagementServerCore.errorBody("invalidFault", error.message, field: error.field))
      }
    }
    router.delete("api/faults") { request, context -> Response in
      if let refusal = refuseWithoutToken(request, context: context, server: server) {
        return refusal
      }
      await server.setFault(nil)
      return json(200, Array(#"{"fault":null}"#.utf8))
    }
    DeviceRoutes.add(to: router, server: server, options: options)
    router.get("openapi.json") { _, _ in
      json(200, Array(OpenAPIDocument.json(appID: server.validationSettings.appID).utf8))
    }
    return router
  }

  // MARK: The registration (S1, S7)

  /// The token is checked before the body is read, so a client without it cannot make the
  /// server read (or hold) a large body; a fault still answers before any check.
  private static func register(
    _ request: Request, context: EngagementRequestContext, server: LocalEngagementServer,
    options: EngagementHTTPServer.Options
  ) async -> Response {
    var request = request
    if server.adoptsFirstApp, await server.adoptedApp == nil,
      let body = try? await request.collectBody(upTo: options.maxBodyBytes)
    {
      // --any-app: the first registration names the app (collectBody keeps what it read).
      _ = await server.adoptIfFirst(
        authorization: request.headers[.authorization],
        payload: try? WireDecoding.payload(from: Data(body.readableBytesView)).get())
    }
    if case .invalid(let answer, var refusal)? = EngagementServerCore.authorize(
      request.headers[.authorization], settings: server.validationSettings)
    {
      // A small body is read to learn which device was refused, so the receiver can show it;
      // a larger one is left unread and the connection closed.
      if let small = try? await request.collectBody(upTo: DeviceWatch.bodyLimit) {
        refusal.payload = try? WireDecoding.payload(from: Data(small.readableBytesView)).get()
      }
      let facts = DeviceRoutes.facts(request)
      return closingUnread(
        await Self.answer(
          server.receive(.invalid(answer, refusal: refusal), facts: facts).answer,
          options: options),
        context: context)
    }
    let buffer: ByteBuffer
    do {
      buffer = try await request.collectBody(upTo: options.maxBodyBytes)
    } catch {
      let refusal = EngagementServerCore.Validation.refused(
        Refusal(
          kind: .bodyTooLarge, status: 413,
          reason: "the body is larger than \(options.maxBodyBytes) bytes"))
      return closingUnread(
        await answer(
          server.receive(refusal, facts: DeviceRoutes.facts(request)).answer,
          options: options), context: context)
    }
    // Decoding and checking run here, in parallel across connections; only accepting the
    // registration goes through the server's actor.
    let validation = EngagementServerCore.validate(
      authorization: request.headers[.authorization], body: Array(buffer.readableBytesView),
      settings: server.validationSettings)
    let (answer, token) = await server.receive(validation, facts: DeviceRoutes.facts(request))
    var response = await Self.answer(answer, options: options)
    if let token { response.headers[DeviceRoutes.subscriberToken] = token }
    return response
  }

  static func answer(_ answer: ServerAnswer, options: EngagementHTTPServer.Options)
    async -> Response
  {
    switch answer {
    case .respond(let status, let body, let retryAfter):
      return json(status, body, retryAfter: retryAfter)
    case .hang:
      try? await Task.sleep(for: .seconds(options.hangSeconds))
      return json(504, EngagementServerCore.errorBody("hung", "injected fault: hang", field: nil))
    case .drop, .refuse:
      // Headers may go out, but the body never completes: the client sees a dropped
      // connection, not an answer.
      return Response(status: .ok, body: ResponseBody { _ in throw DroppedConnection() })
    }
  }

  // MARK: Helpers

  /// The control routes change what every client sees, so they need the app's token too.
  private static func refuseWithoutToken(
    _ request: Request, context: EngagementRequestContext, server: LocalEngagementServer
  ) -> Response? {
    guard
      let reason = BearerAuthorization.problem(
        request.headers[.authorization], token: server.validationSettings.accessToken)
    else { return nil }
    return closingUnread(
      json(401, EngagementServerCore.errorBody("unauthorized", reason, field: nil)),
      context: context)
  }

  /// The whole body, or nil when it is larger than the server takes.
  static func readBody(_ request: Request, _ options: EngagementHTTPServer.Options) async
    -> ByteBuffer?
  {
    var request = request
    return try? await request.collectBody(upTo: options.maxBodyBytes)
  }

  static func tooLarge(
    _ options: EngagementHTTPServer.Options, context: EngagementRequestContext
  ) -> Response {
    closingUnread(
      json(
        413,
        EngagementServerCore.errorBody(
          "bodyTooLarge", "the body is larger than \(options.maxBodyBytes) bytes", field: nil)),
      context: context)
  }

  struct QueryProblem: Error {
    var response: Response
  }

  /// `limit` (1 to 1000, default 100) and `before` (the `next` of the page before).
  private static func pageQuery(_ request: Request) throws(QueryProblem) -> (
    limit: Int, before: String?
  ) {
    let parameters = request.uri.queryParameters
    let before = parameters.get("before")
    if before?.isEmpty == true {
      throw QueryProblem(
        response: json(
          400,
          EngagementServerCore.errorBody(
            "invalidQuery", "before is empty: give the next of the page before, or leave it out",
            field: "before")))
    }
    guard let text = parameters.get("limit") else { return (defaultLimit, before) }
    guard let limit = Int(text), (1...largestLimit).contains(limit) else {
      throw QueryProblem(
        response: json(
          400,
          EngagementServerCore.errorBody(
            "invalidQuery",
            "limit must be a whole number from 1 to \(largestLimit); got \"\(TerminalText.escaped(text))\"",
            field: "limit")))
    }
    return (limit, before)
  }

  /// 404, not 400: the query is well formed, but what it points at is not here (a `next` from
  /// another run of the server, or one whose item has left the view).
  private static func unknownCursor(_ cursor: String) -> Response {
    json(
      404,
      EngagementServerCore.errorBody(
        "unknownCursor",
        "before \"\(TerminalText.escaped(cursor))\" names nothing this view holds; use the next of the page before",
        field: "before"))
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
      channel.eventLoop.execute {
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
      }
    }
    return response
  }

  static func json(_ status: Int, _ body: [UInt8], retryAfter: Double? = nil) -> Response {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retryAfter { headers[.retryAfter] = NumberText.compact(retryAfter.rounded(.up)) }
    return Response(
      status: HTTPResponse.Status(code: status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

/// A `drop` fault: the body stream fails after the headers went out.
struct DroppedConnection: Error {}
