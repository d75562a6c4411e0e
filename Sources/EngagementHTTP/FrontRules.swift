import EngagementCore
import EngagementServer
import Foundation
import HTTPTypes
import RegistrationCore

/// The front's rules, written once for both ways a request is answered: Hummingbird's
/// middleware and routes (`FrontRulesMiddleware`, `DeviceRoutes`, `CaptureMiddleware`) and the
/// registration's fast path (`RegistrationFastPath`), which reads NIO's head before any
/// `HTTPTypes` exist. Each rule takes the head's fields as plain values and returns what to
/// answer, or nil to go on; `FrontRulesTests` holds each to its answer, and both paths to
/// the same answer.
struct FrontRules: Sendable {
  /// Names `Host` may carry besides addresses and localhost (`--host-name`), lower-cased.
  let hostNames: Set<String>
  /// The largest body any route reads (`Options.maxBodyBytes`, 1 MiB by default): past it, 413.
  let maxBodyBytes: Int
  /// What a client whose token is refused can make the server read of a registration: a
  /// refusal needs no more than the device it names, and a client without the token must not
  /// make the server read (or hold) a large body.
  static let unauthorizedBodyLimit = 8 << 10
  /// Bodies kept whole by the watch and the capture (`DeviceWatch.bodyLimit`): the fast path
  /// takes registrations up to this, and the local routes note such a body themselves.
  let wholeBodyLimit = DeviceWatch.bodyLimit
  /// `http` or `https`: the scheme of the capture's URLs.
  let scheme: String

  init(hostNames: [String], maxBodyBytes: Int, scheme: String) {
    self.hostNames = Set(hostNames.map { $0.lowercased() })
    self.maxBodyBytes = maxBodyBytes
    self.scheme = scheme
  }

  init(_ options: EngagementHTTPServer.Options) {
    self.init(
      hostNames: options.hostNames, maxBodyBytes: options.maxBodyBytes,
      scheme: options.tls == nil ? "http" : "https")
  }

  /// An answer the front gives before any route: a status, its JSON body, and whether the
  /// connection closes after it (the body was left unread).
  struct HeadRefusal: Equatable, Sendable {
    var status: Int
    var body: [UInt8]
    var closes = false
  }

  /// The head's refusal, in the front's order: more than one `Host` (RFC 9112 3.2: which one
  /// a proxy or a browser took is anyone's guess), a `Host` this receiver was not told about
  /// (DNS rebinding, `HostNames`), a declared length past the limit. `contentLength` as it
  /// came: only digits are a length (anything else is the parser's to refuse).
  func refusal(authority: String?, hostRepeated: Bool, contentLength: String?) -> HeadRefusal? {
    if hostRepeated {
      return HeadRefusal(
        status: 400,
        body: EngagementServerCore.errorBody(
          "invalidHost", "the request has more than one Host header (RFC 9112 3.2)",
          field: "Host"))
    }
    if let authority, !HostNames.accepts(authority, names: hostNames) {
      let host = TerminalText.escaped(String(HostNames.hostPart(of: authority).prefix(200)))
      return HeadRefusal(
        status: 421,
        body: EngagementServerCore.errorBody(
          "misdirectedRequest",
          "this receiver answers to loopback, IP addresses and the names given with --host-name, not \"\(host)\" (a name pointed at it by someone else could read it through a browser); add --host-name \(host) if it is yours",
          field: "Host"))
    }
    guard let declared = contentLength, !declared.isEmpty,
      declared.utf8.allSatisfy({ (48...57).contains($0) })
    else { return nil }
    // All digits: one too long for an Int is past any limit too.
    guard Int(declared) ?? .max > maxBodyBytes else { return nil }
    return HeadRefusal(status: 413, body: tooLargeBody(declared: declared), closes: true)
  }

  /// The one wording of a body too large, wherever it is found: from its declared length, or
  /// as it was read.
  func tooLargeReason(declared: String? = nil) -> String {
    "the body is larger than this server takes (at most \(maxBodyBytes) bytes)"
      + (declared.map { "; it declares \(TerminalText.escaped(String($0.prefix(40)))) bytes" } ?? "")
  }

  /// The 413's JSON body.
  func tooLargeBody(declared: String? = nil) -> [UInt8] {
    EngagementServerCore.errorBody("bodyTooLarge", tooLargeReason(declared: declared), field: nil)
  }

  /// How much of a registration's body is read: all the server takes, or, when the token is
  /// refused (`EngagementServerCore.authorize`, checked first), what the watch keeps, so a
  /// client without the token cannot make the server read (or hold) a large body.
  func registrationBodyLimit(refused: EngagementServerCore.Validation?) -> Int {
    refused == nil ? maxBodyBytes : Self.unauthorizedBodyLimit
  }

  /// A registration's validation (S1) and whether its connection closes after the answer.
  /// `refused` is the token's refusal; `body` what was read, nil when it was larger than
  /// `registrationBodyLimit`. A refused token keeps the device its body names, so the
  /// receiver shows the refusal against it; the connection of a refused token, or of a body
  /// too large, is closed (its body may be unread).
  func registration(
    authorization: String?, refused: EngagementServerCore.Validation?, body: [UInt8]?,
    settings: ServerSettings
  ) -> (validation: EngagementServerCore.Validation, closes: Bool) {
    if case .invalid(let answer, var refusal)? = refused {
      refusal.payload = body.flatMap { try? WireDecoding.payload(from: $0).get() }
      return (.invalid(answer, refusal: refusal), true)
    }
    guard let body else {
      let tooLarge = Refusal(kind: .bodyTooLarge, status: 413, reason: tooLargeReason())
      return (.refused(tooLarge), true)
    }
    return (
      EngagementServerCore.validate(authorization: authorization, body: body, settings: settings),
      false
    )
  }

  /// A JSON answer's fields, in the order both paths send them and the capture keeps them
  /// (the wire adds `Date` after): built as plain pairs, not `HTTPFields`, which cost the
  /// fast path three allocations an answer.
  static func answerFields(
    length: Int, retryAfter: Double? = nil, token: String? = nil, closes: Bool = false
  ) -> [HeaderField] {
    var fields: [HeaderField] = []
    fields.reserveCapacity(5)
    fields.append(HeaderField("Content-Type", "application/json"))
    if let retryAfter {
      fields.append(HeaderField("Retry-After", NumberText.compact(retryAfter.rounded(.up))))
    }
    fields.append(HeaderField("Content-Length", String(length)))
    if let token { fields.append(HeaderField("X-Subscriber-Token", token)) }
    if closes { fields.append(HeaderField("Connection", "close")) }
    return fields
  }

  /// A device request's URL as the capture shows it; a request without `Host` is taken to
  /// have named the loopback address.
  func url(authority: String?, uri: String) -> String {
    "\(scheme)://\(authority ?? "127.0.0.1")\(uri)"
  }

  /// Completes a device exchange with its answer, as the capture keeps it: an app that went
  /// before its answer was ready got none.
  static func complete(
    _ exchange: inout CapturedExchange, status: Int, headers: [HeaderField], body: [UInt8],
    since started: ContinuousClock.Instant, delivered: Bool
  ) {
    exchange.responseHeaders = headers
    exchange.duration = seconds(since: started)
    if delivered {
      exchange.status = status
      exchange.responseBody = body
    } else {
      exchange.status = nil
      exchange.error = dropped
    }
  }

  /// What an exchange whose app got no answer says.
  static let dropped = "the connection was dropped before the answer ended"

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

extension HTTPFields {
  /// An answer's fields (`FrontRules.answerFields`) for Hummingbird's response.
  init(answer fields: [HeaderField]) {
    self.init()
    reserveCapacity(fields.count)
    for field in fields {
      guard let name = HTTPField.Name(field.name) else { continue }
      append(HTTPField(name: name, value: field.value))
    }
  }
}
