import AsyncHTTPClient
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import RegistrationCore

/// The real tenant a watched app's requests are relayed to (`--upstream`): method, path,
/// query, headers (the access token untouched) and body go on as they came; the tenant's
/// status, `Retry-After`, `X-Subscriber-Token` and body come back.
public struct Upstream: Sendable {
  /// Without a trailing slash: `https://mcxyz.device.marketingcloudapis.com`.
  public let base: String

  /// Nil when `text` is not an http(s) URL with a host.
  public init?(_ text: String) {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host != nil
    else { return nil }
    var base = text
    while base.hasSuffix("/") { base.removeLast() }
    self.base = base
  }

  struct Answer {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: ByteBuffer
  }

  /// Hop-by-hop and framing headers are the relay's own business.
  static let notRelayed: Set<String> = [
    "host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade",
  ]
  static let largestAnswer = 10 << 20

  /// One client for the process. Redirects are the app's business, not the relay's; a
  /// refused connection is reported at once (a 502), not retried until the time-out.
  private static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)),
      connectionPool: .init(idleTimeout: .seconds(30)))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  /// The tenant's answer, or why there is none.
  func forward(_ request: Request, body: ByteBuffer) async -> Result<Answer, RelayFailure> {
    var outgoing = HTTPClientRequest(url: base + request.uri.string)
    outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
    for field in request.headers where !Self.notRelayed.contains(field.name.canonicalName) {
      outgoing.headers.add(name: field.name.rawName, value: field.value)
    }
    outgoing.body = .bytes(body)
    do {
      let response = try await Self.client.execute(outgoing, timeout: .seconds(30))
      let answer = try await response.body.collect(upTo: Self.largestAnswer)
      return .success(
        Answer(
          status: Int(response.status.code),
          headers: response.headers.filter { !Self.notRelayed.contains($0.name.lowercased()) }
            .map { ($0.name, $0.value) }, body: answer))
    } catch {
      return .failure(RelayFailure(reason: "\(error)", upstream: base))
    }
  }
}

/// The tenant could not be reached, or did not answer in time: a 502 with the reason.
struct RelayFailure: Error {
  var reason: String
  var upstream: String

  var response: Response {
    EngagementRoutes.json(
      502,
      EngagementServerCore.errorBody(
        "upstreamUnreachable",
        "the tenant at \(TerminalText.escaped(upstream)) did not answer: \(TerminalText.escaped(reason))",
        field: nil))
  }
}

extension Upstream.Answer {
  var response: Response {
    var fields = HTTPFields()
    for (name, value) in headers {
      guard let field = HTTPFields.Element.Name(name) else { continue }
      fields[field] = value
    }
    return Response(
      status: HTTPResponse.Status(code: status), headers: fields,
      body: ResponseBody(byteBuffer: body))
  }

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }
}
