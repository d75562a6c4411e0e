import EngagementCore
import HTTPTypes
import Hummingbird

/// The front's head rules (`FrontRules.refusal`: the `Host`, the declared length) on every
/// route Hummingbird answers, before any reads a body; the fast path applies the same rules
/// to the registrations it takes.
struct FrontRulesMiddleware: RouterMiddleware {
  typealias Context = EngagementRequestContext
  let rules: FrontRules

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    // `HTTPTypes` takes the first `Host` as the authority; any other stays a field.
    let hosts = request.headers.lazy.filter { $0.name.canonicalName == "host" }.count
    guard
      let refusal = rules.refusal(
        authority: request.head.authority,
        hostRepeated: hosts > (request.head.authority == nil ? 1 : 0),
        contentLength: request.headers[.contentLength])
    else { return try await next(request, context) }
    let response = EngagementRoutes.json(refusal.status, refusal.body)
    return refusal.closes ? EngagementRoutes.closingUnread(response, context: context) : response
  }
}
