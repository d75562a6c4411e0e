import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import RegistrationCore

/// The API's controls (`/api/demographics`, `/api/tenant/refresh`, `/api/faults`): they change
/// what every client sees, so the whole group needs the app's token.
struct ControlRoutes {
  let server: LocalEngagementServer
  let options: EngagementHTTPServer.Options
  /// The front's rules, built once (`EngagementRoutes.router`).
  let rules: FrontRules

  var collection: RouteCollection<EngagementRequestContext> {
    let collection = RouteCollection(context: EngagementRequestContext.self)
      .add(middleware: AppTokenMiddleware(server: server))
    let (server, options, rules) = (self.server, self.options, self.rules)
    collection.put("demographics") { request, context -> Response in
      // With --tenant the table is the tenant's: a typed one would silently stand in for it
      // (and its S5 causes), until the next refresh put the tenant's back.
      if server.hasTenant {
        return EngagementRoutes.json(
          409,
          EngagementServerCore.errorBody(
            "tenantDemographics",
            "this server's demographics are the tenant's MobilePush Demographics (--tenant): change them in Contact Builder, then POST /api/tenant/refresh (D in regscope) reads them again",
            field: nil))
      }
      guard let body = await EngagementRoutes.readBody(request, rules) else {
        return EngagementRoutes.tooLarge(rules, context: context)
      }
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
          as? [String: Any], object.keys.contains("attributes")
      else {
        return EngagementRoutes.json(
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
        return EngagementRoutes.json(
          400,
          EngagementServerCore.errorBody(
            "invalidBody", "attributes must be an array of strings, or null",
            field: "attributes"))
      }
      try await server.defineAttributes(names)
      return EngagementRoutes.json(200, ServerAPIViews.encode(["attributes": names?.sorted()]))
    }
    collection.post("tenant/refresh") { _, _ -> Response in
      guard let answer = await server.refreshDemographics() else {
        return EngagementRoutes.json(
          409,
          EngagementServerCore.errorBody(
            "noTenant",
            "this server was started without --tenant: its demographics are the ones given (--defined-attributes, PUT /api/demographics), not a tenant's",
            field: nil))
      }
      return EngagementRoutes.json(answer.refreshed ? 200 : 502, ServerAPIViews.encode(answer))
    }
    collection.post("faults") { request, context -> Response in
      guard let body = await EngagementRoutes.readBody(request, rules) else {
        return EngagementRoutes.tooLarge(rules, context: context)
      }
      do throws(FaultRequest.Invalid) {
        let fault = try FaultRequest.parse(
          Array(body.readableBytesView), now: server.clock.now())
        await server.setFault(fault)
        return EngagementRoutes.json(200, ServerAPIViews.encode(["fault": fault.summary]))
      } catch {
        return EngagementRoutes.json(
          400, EngagementServerCore.errorBody("invalidFault", error.message, field: error.field))
      }
    }
    collection.delete("faults") { request, context -> Response in
      await server.setFault(nil)
      return EngagementRoutes.json(200, Array(#"{"fault":null}"#.utf8))
    }
    return collection
  }
}

/// Lets a request through only with the app's bearer token. The body is not read first: a
/// client without the token cannot make the server read (or hold) a large one.
struct AppTokenMiddleware: RouterMiddleware {
  typealias Context = EngagementRequestContext
  let server: LocalEngagementServer

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let reason = BearerAuthorization.problem(
      request.headers[.authorization], token: server.validationSettings.accessToken)
    {
      return EngagementRoutes.closingUnread(
        EngagementRoutes.json(
          401, EngagementServerCore.errorBody("unauthorized", reason, field: nil)),
        context: context)
    }
    return try await next(request, context)
  }
}
