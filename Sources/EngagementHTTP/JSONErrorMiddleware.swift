import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import RegistrationCore

/// Every error answer is JSON naming the problem, unknown routes included; a known path asked
/// with another method is 405 with `Allow`.
struct JSONErrorMiddleware: RouterMiddleware {
  typealias Context = EngagementRequestContext
  let allowed: AllowedMethods

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError {
      let path = TerminalText.escaped(request.uri.path)
      let method = TerminalText.escaped(request.method.rawValue)
      var status = error.status
      let message: String
      let code: String
      let allowed = self.allowed.methods(for: request.uri.path)
      switch error.status {
      case .notFound, .methodNotAllowed:
        if let allowed {
          status = .methodNotAllowed
          code = "methodNotAllowed"
          message =
            "\(method) is not allowed on \(path); use \(allowed.map(\.rawValue).joined(separator: ", "))"
        } else {
          code = "notFound"
          message = "no route \(method) \(path); see GET /openapi.json"
        }
      case .contentTooLarge:
        code = "bodyTooLarge"
        message = error.body ?? "the body is too large"
      default:
        code = "httpError"
        message = error.body ?? error.status.reasonPhrase
      }
      var response = EngagementRoutes.json(
        status.code, EngagementServerCore.errorBody(code, message, field: nil))
      if status == .methodNotAllowed, let allowed {
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
      }
      return response
    }
  }
}
