import Foundation
import NIOCore
import NIOHTTP1
import OutboundHTTP
import RegistrationCore

/// One request to the tenant and its whole answer within one deadline, bounded in bytes,
/// through the one client RegScope uses for every third party (`OutboundHTTP`: a status below
/// 100 is an answer refused, never a trap; redirects are never followed, so a token request is
/// never re-posted, with the secret, to wherever a 3xx points).
struct TenantHTTP: Sendable {
  /// Definitions of every attribute set run to thousands of lines: a page is well under this.
  static let largestAnswer = 16 << 20

  struct Request: Sendable {
    var url: String
    var method: HTTPMethod = .GET
    var headers = HTTPHeaders()
    var body: [UInt8]? = nil

    init(url: String) { self.url = url }
  }

  struct Answer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
  }

  enum Failure: Error, Sendable {
    case unreachable(String)
    case late
    case tooLarge
    /// It answered, but not with HTTP RegScope can take (a status outside 200-599, bytes
    /// that are not HTTP, an answer cut short).
    case notHTTP(String)
    /// A header that cannot be sent (a control character in a token): its name only.
    case unsendableHeader(String)
  }

  /// Seconds from sending the request to the last byte of the answer.
  let deadline: Double

  /// `within`: seconds for this request, at most `deadline` (the time its exchange has left).
  func send(_ request: Request, within: Double? = nil) async -> Result<Answer, Failure> {
    guard let target = OutboundHTTP.Target(url: request.url) else {
      return .failure(.unreachable("not an http or https URL"))
    }
    let parts = URLComponents(string: request.url)
    let query = parts?.percentEncodedQuery.map { "?" + $0 } ?? ""
    let path = String(
      request.url.dropFirst((parts?.scheme?.count ?? 0) + 3).drop { $0 != "/" }
        .prefix { $0 != "?" })
    var headers = request.headers
    headers.replaceOrAdd(name: "Host", value: target.hostHeader)
    headers.replaceOrAdd(name: "Content-Length", value: String(request.body?.count ?? 0))
    headers.replaceOrAdd(name: "Connection", value: "close")
    let head = HTTPRequestHead(
      version: .http1_1, method: request.method,
      uri: (path.isEmpty ? "/" : path) + query, headers: headers)
    do {
      let answer = try await OutboundHTTP.exchange(
        OutboundHTTP.Target(host: target.host, port: target.port, tls: target.tls, basePath: ""),
        head: head, body: ByteBuffer(bytes: request.body ?? []),
        deadline: .nanoseconds(Int64((min(deadline, within ?? deadline) * 1e9).rounded())),
        largest: Self.largestAnswer)
      var fields = HTTPHeaders()
      for (name, value) in answer.headers { fields.add(name: name, value: value) }
      return .success(
        Answer(status: answer.status, headers: fields, body: Array(answer.body.readableBytesView)))
    } catch let failure as OutboundHTTP.Failure {
      switch failure {
      case .deadline: return .failure(.late)
      case .tooLarge: return .failure(.tooLarge)
      case .unsendableHeader(let name): return .failure(.unsendableHeader(name))
      case .invalidStatus, .notHTTP, .closedEarly: return .failure(.notHTTP("\(failure)"))
      case .unreachable(let reason): return .failure(.unreachable(Self.describe(reason)))
      case .appGone: return .failure(.unreachable("the request was abandoned"))
      }
    } catch is CancellationError {
      return .failure(.unreachable("the request was cancelled"))
    } catch {
      return .failure(.unreachable(Self.describe("\(error)")))
    }
  }

  /// The connection's error in a few words.
  private static func describe(_ text: String) -> String {
    if text.contains("connectTimeout") || text.contains("timed out") {
      return "the connection timed out"
    }
    if text.contains("Connection refused") || text.contains("connectionRefused") {
      return "connection refused"
    }
    if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("getaddrinfo")
      || text.contains("resolve")
    {
      return "the host name does not resolve"
    }
    return TerminalText.escaped(text.count > 200 ? String(text.prefix(200)) + "…" : text)
  }
}
