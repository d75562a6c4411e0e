import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import OutboundHTTP
import RegistrationCore
import Synchronization

/// The real tenant a watched app's requests are relayed to (`--upstream`): method, path,
/// query, headers (the access token untouched) and body go on as they came; the tenant's
/// status, `Retry-After`, `X-Subscriber-Token` and body come back.
public struct Upstream: Sendable {
  /// Without a trailing slash or credentials: `https://mcxyz.device.marketingcloudapis.com`.
  /// What is printed and what requests go to.
  public let base: String
  /// The whole exchange, from the app's request to the tenant's last byte, ends by then: a
  /// tenant that dribbles its answer gets the app a 504, not a hang.
  public var deadline: Duration = .seconds(30)
  /// Where the base URL points, read once (its port as `OutboundHTTP.Target` reads every
  /// outbound URL's).
  let target: OutboundHTTP.Target

  /// Nil when `text` is not an http(s) URL with a host, no query and no fragment
  /// (`problem(with:)` says which).
  public init?(_ text: String) {
    guard Self.problem(with: text) == nil, var parts = URLComponents(string: text) else {
      return nil
    }
    // Credentials in the URL are never printed nor sent: the app's own bearer token is.
    parts.user = nil
    parts.password = nil
    var base = parts.string ?? text
    while base.hasSuffix("/") { base.removeLast() }
    guard let target = OutboundHTTP.Target(url: base) else { return nil }
    self.base = base
    self.target = target
  }

  /// Why `text` cannot be the tenant's base URL, or nil when it can. Plain http only to this
  /// machine, the host read exactly as written (`LoopbackHost`, as a tenant file's URIs are:
  /// percent-encoded, it is refused): every relayed request carries the app's access token.
  public static func problem(with text: String) -> String? {
    guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = parts.percentEncodedHost, !host.isEmpty
    else { return "expected an http or https URL with a host" }
    if parts.query != nil || parts.fragment != nil {
      return
        "a base URL has no query (?...) or fragment (#...): the app's path and query are added to it"
    }
    // Foundation reads `:99999999999999999999` as no port at all: the one reading of a
    // port refuses it, where port 80 would have been asked silently.
    if OutboundHTTP.Target(url: text) == nil {
      return "its port is not a whole number from 1 to 65535"
    }
    if scheme == "http" && !LoopbackHost.contains(host) {
      return
        "must be https://: plain http only to this machine, written as 127.0.0.1, localhost or [::1] (no other spelling); the app's access token would cross the network in clear"
    }
    return nil
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
  /// Requests relayed at once. Each has a connection of its own to the tenant (no pool to
  /// starve: a slow answer holds only its own); past this many a device gets a 503 at once,
  /// marked in its timeline as RegScope's own answer, not the tenant's.
  public static let relayedAtOnce = 512
  /// This process's name in `Via`: a request that already carries it came round a loop (a
  /// relay whose upstream is itself, or a chain back to it) and is answered 508 at once.
  public static let viaName: String = {
    var generator = SystemRandomNumberGenerator()
    return "regscope-" + String(generator.next() as UInt64, radix: 36)
  }()
  private static let inFlight = Mutex(0)

  /// The tenant's answer, or why there is none.
  func forward(_ request: Request, body: ByteBuffer, appClosed: EventLoopFuture<Void>? = nil)
    async -> Result<Answer, RelayFailure>
  {
    guard
      Self.inFlight.withLock({ count in
        guard count < Self.relayedAtOnce else { return false }
        count += 1
        return true
      })
    else { return .failure(RelayFailure(kind: .full, reason: "", upstream: base)) }
    defer { Self.inFlight.withLock { $0 -= 1 } }
    if request.headers[values: .via].contains(where: { $0.contains(Self.viaName) }) {
      return .failure(RelayFailure(kind: .loop, reason: "", upstream: base))
    }
    var headers = HTTPHeaders()
    for field in request.headers where !Self.notRelayed.contains(field.name.canonicalName) {
      headers.add(name: field.name.rawName, value: field.value)
    }
    headers.add(name: "Host", value: target.hostHeader)
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "Connection", value: "close")
    headers.add(name: "Via", value: "1.1 \(Self.viaName)")
    let head = HTTPRequestHead(
      version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue),
      uri: target.basePath + request.uri.string, headers: headers)
    do {
      let answer = try await OutboundHTTP.exchange(
        target, head: head, body: body, deadline: deadline, largest: Self.largestAnswer,
        appClosed: appClosed)
      return .success(
        Answer(
          status: answer.status,
          headers: answer.headers.filter { !Self.notRelayed.contains($0.name.lowercased()) },
          body: answer.body))
    } catch let failure as OutboundHTTP.Failure where failure.isInvalidAnswer {
      return .failure(RelayFailure(kind: .invalidAnswer, reason: "\(failure)", upstream: base))
    } catch OutboundHTTP.Failure.deadline {
      return .failure(
        RelayFailure(
          kind: .deadline,
          reason: "no whole answer within \(deadline.components.seconds) s", upstream: base))
    } catch {
      return .failure(RelayFailure(kind: .unreachable, reason: "\(error)", upstream: base))
    }
  }
}

/// Why the relay answered the app itself: the tenant could not be reached (502), answered
/// something that cannot be passed on (502: a status outside 200-599, bytes that are not HTTP,
/// an answer cut short or too large), did not finish in time (504), or the relay was full
/// (503, RegScope's own limit).
struct RelayFailure: Error {
  enum Kind {
    case unreachable, invalidAnswer, deadline, full, loop
  }

  var kind: Kind
  var reason: String
  var upstream: String

  var status: Int {
    switch kind {
    case .unreachable, .invalidAnswer: 502
    case .deadline: 504
    case .full: 503
    case .loop: 508
    }
  }

  var response: Response {
    let (code, message) = said
    return EngagementRoutes.json(
      status, EngagementServerCore.errorBody(code, message, field: nil))
  }

  /// The error's code and message, as the app gets them and the terminal says them.
  var said: (code: String, message: String) {
    let tenant = TerminalText.escaped(upstream)
    return switch kind {
    case .unreachable:
      (
        "upstreamUnreachable",
        "the tenant at \(tenant) did not answer: \(TerminalText.escaped(reason))"
      )
    case .invalidAnswer:
      (
        "upstreamInvalid",
        "the tenant at \(tenant) gave no answer an app can take: \(TerminalText.escaped(reason))"
      )
    case .deadline:
      (
        "upstreamTimeout",
        "the tenant at \(tenant) gave \(reason); the relay closed the connection"
      )
    case .loop:
      (
        "loopDetected",
        "this request already passed through this relay (Via): the upstream \(tenant) leads back to it"
      )
    case .full:
      (
        "relayFull",
        "RegScope's relay is full (\(Upstream.relayedAtOnce) requests at once); this device's request did not reach the tenant"
      )
    }
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
