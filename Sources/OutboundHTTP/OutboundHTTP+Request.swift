import Foundation
import NIOHTTP1

extension OutboundHTTP {
  /// A request to a whole URL: where it goes, and its head (the URL's path and query as
  /// written, `Host`, `Content-Length`, `Connection: close`: a connection of its own never
  /// meets one a server restart left stale). Nil for a URL `Target` refuses.
  public static func request(
    _ method: HTTPMethod, url: String, headers: HTTPHeaders, bodyCount: Int
  ) -> (target: Target, head: HTTPRequestHead)? {
    guard var target = Target(url: url), let parts = URLComponents(string: url) else {
      return nil
    }
    var headers = headers
    headers.replaceOrAdd(name: "Host", value: target.hostHeader)
    headers.replaceOrAdd(name: "Content-Length", value: String(bodyCount))
    headers.replaceOrAdd(name: "Connection", value: "close")
    let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
    // The head carries the URL's whole path: nothing goes before it.
    target.basePath = ""
    let head = HTTPRequestHead(
      version: .http1_1, method: method,
      uri: path + (parts.percentEncodedQuery.map { "?" + $0 } ?? ""), headers: headers)
    return (target, head)
  }
}
