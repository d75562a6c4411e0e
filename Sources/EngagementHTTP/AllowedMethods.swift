import Hummingbird
import Synchronization

/// The methods each path answers, read from the router once every route is added: a known
/// path asked with another method gets 405 and this list in `Allow`. Read from the routes
/// themselves, it can never disagree with them.
final class AllowedMethods: Sendable {
  private struct Route {
    var method: HTTPRequest.Method
    /// A path's segments; nil stands for a parameter (`:deviceID`), which matches any one.
    var segments: [Substring?]
  }

  private let routes = Mutex<[Route]>([])

  /// Takes the router's routes: called once, when it is complete.
  func learn<Context>(_ router: Router<Context>) {
    let learned = router.routes.map { description in
      Route(
        method: description.method,
        segments: description.path.components.map { element -> Substring? in
          let text = element.description
          let parameter = text.hasPrefix(":") || text.hasPrefix("{") || text.contains("*")
          return parameter ? nil : Substring(text)
        })
    }
    routes.withLock { $0 = learned }
  }

  /// The methods `path` answers, in a stable order; nil when no route has this path.
  func methods(for path: String) -> [HTTPRequest.Method]? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    let methods = routes.withLock { routes in
      routes.filter { route in
        route.segments.count == segments.count
          && zip(route.segments, segments).allSatisfy { $0 == nil || $0 == $1 }
      }.map(\.method)
    }
    guard !methods.isEmpty else { return nil }
    return Array(Set(methods)).sorted { $0.rawValue < $1.rawValue }
  }
}
