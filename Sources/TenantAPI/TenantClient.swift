import Foundation
import NIOHTTP1
import OutboundHTTP
import RegistrationCore

/// A Marketing Cloud tenant through its documented REST API, as an installed package's
/// Server-to-Server integration reaches it: a token from `POST {auth}/v2/token`, kept until
/// shortly before it expires, then the Contacts API with it.
public actor TenantClient {
  public nonisolated let credentials: TenantCredentials
  private let http: BoundedFetch
  /// Definitions of every attribute set run to thousands of lines: a page is well under this.
  static let largestAnswer = 16 << 20
  private let now: @Sendable () -> ContinuousClock.Instant
  private let wait: @Sendable (Duration) async -> Void
  private var token: Token?
  /// Token requests made, for the stand-in's tests and `tenant check`'s summary.
  public private(set) var tokensRequested = 0

  /// The longest a 429's Retry-After is waited; past it the throttle is said instead.
  public static let longestWait: Double = 30
  /// The longest a token is kept, whatever its `expires_in` says.
  public static let longestTokenLife: Double = 86_400
  /// How many 429s in a row one request waits out.
  static let throttleRetries = 2

  struct Token {
    var value: String
    /// The REST base for this token: its `rest_instance_url`, else the file's.
    var rest: String
    var renewAt: ContinuousClock.Instant
  }

  /// One deadline over a whole exchange (every page, the token on the way, each 429 waited
  /// out): `exchangeDeadline` seconds from its start. A tenant whose pages never end, or end
  /// slowly, never holds a start or a refresh longer.
  public nonisolated let exchangeDeadline: Double

  public init(
    _ credentials: TenantCredentials, deadline: Double = 20, exchangeDeadline: Double? = nil,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
    wait: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) },
    transport: @escaping BoundedFetch.Transport = BoundedFetch.network
  ) {
    self.credentials = credentials
    self.http = BoundedFetch(deadline: deadline, largest: Self.largestAnswer, transport: transport)
    self.exchangeDeadline = exchangeDeadline ?? deadline * 3
    self.now = now
    self.wait = wait
  }

  /// When an exchange starting now must be over.
  func exchangeEnds() -> ContinuousClock.Instant { now() + .seconds(exchangeDeadline) }

  /// The documented REST route's answer body, with the bearer token: a 401 renews the token
  /// once and retries (it may have expired early); a 429 is waited out as it asks; all of it
  /// before `until` (the whole exchange's deadline).
  func get(_ path: String, what: String, until: ContinuousClock.Instant) async throws(TenantFailure)
    -> [UInt8]
  {
    try await rest(path, body: nil, what: what, until: until)
  }

  /// `get`, or a POST of `body` (JSON) when one is given.
  func rest(_ path: String, body: [UInt8]?, what: String, until: ContinuousClock.Instant)
    async throws(TenantFailure) -> [UInt8]
  {
    var renewed = false
    var throttles = 0
    while true {
      let token = try await currentToken(until: until)
      var request = BoundedFetch.Request(url: token.rest + path)
      request.headers.add(name: "Authorization", value: "Bearer \(token.value)")
      request.headers.add(name: "Accept", value: "application/json")
      if let body {
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = body
      }
      let answer = try await send(request, what: what, uri: token.rest, until: until)
      switch answer.status {
      case 200..<300: return answer.body
      case 401 where !renewed:
        renewed = true
        self.token = nil
      case 401: throw .tokenNotAccepted(what: what)
      case 403: throw .missingScope(what: what)
      case 404: throw .notFound(what: what, field: "rest_base_uri")
      case 429:
        try await waitOut(answer, what: what, retries: &throttles, until: until)
      default:
        throw .status(what: what, status: answer.status, message: Self.message(answer.body))
      }
    }
  }

  /// The token, renewed when it is close to expiring.
  private func currentToken(until: ContinuousClock.Instant) async throws(TenantFailure) -> Token {
    if let token, now() < token.renewAt { return token }
    let fresh = try await requestToken(until: until)
    token = fresh
    return fresh
  }

  private func requestToken(until: ContinuousClock.Instant) async throws(TenantFailure) -> Token {
    let what = "POST \(credentials.authBaseURI)/v2/token"
    var throttles = 0
    while true {
      var request = BoundedFetch.Request(url: credentials.authBaseURI + "/v2/token")
      request.method = .POST
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = tokenRequestBody()
      tokensRequested += 1
      let sent = now()
      let answer = try await send(
        request, what: what, uri: credentials.authBaseURI, until: until)
      switch answer.status {
      case 200..<300: return try token(from: answer.body, what: what, sent: sent)
      case 404: throw .notFound(what: what, field: "auth_base_uri")
      case 429: try await waitOut(answer, what: what, retries: &throttles, until: until)
      case 400..<500:
        let refusal = Self.oauthError(answer.body)
        if answer.status == 401 || refusal.error == "invalid_client" {
          throw .credentialsRefused(error: refusal.error ?? "401", detail: refusal.detail)
        }
        throw .tokenRefused(status: answer.status, error: refusal.error, detail: refusal.detail)
      default:
        throw .status(what: what, status: answer.status, message: Self.message(answer.body))
      }
    }
  }

  /// The documented body: grant type, id, secret, and the MID when one is given.
  private func tokenRequestBody() -> [UInt8] {
    var body: [String: Any] = [
      "grant_type": "client_credentials", "client_id": credentials.clientID,
      "client_secret": credentials.clientSecret.revealed,
    ]
    if let account = credentials.accountID {
      body["account_id"] = Int(account).map { $0 as Any } ?? account
    }
    return Array((try? JSONSerialization.data(withJSONObject: body)) ?? Data())
  }

  private func token(from body: [UInt8], what: String, sent: ContinuousClock.Instant)
    throws(TenantFailure) -> Token
  {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
      throw .malformed(what: what, reason: "not a JSON object")
    }
    guard let value = object["access_token"] as? String, !value.isEmpty else {
      throw .malformed(what: what, reason: "no access_token")
    }
    // A token goes in a header: one with a control character (CR LF would split the request)
    // is refused here, said masked, and never sent.
    if let control = value.unicodeScalars.enumerated().first(where: {
      TerminalText.isUnsafe($0.element) && $0.element.value <= 0x9F
    }) {
      throw .unusableToken(
        what: what, masked: TokenText.masked(value),
        control: TerminalText.escaped(String(control.element)), at: control.offset + 1)
    }
    guard let expires = (object["expires_in"] as? NSNumber)?.doubleValue, expires >= 0 else {
      throw .malformed(what: what, reason: "no expires_in")
    }
    // The token's own REST base first; one refused (plain http off this machine, not a URI)
    // gives way to the file's, and is said, with why, when the file gives none.
    var refusal: String? = nil
    var instance: String? = nil
    if let given = object["rest_instance_url"], !(given is NSNull) {
      if let text = given as? String {
        refusal = TenantURI.problem(text)
        instance = refusal == nil ? TenantURI.trimmed(text) : nil
      } else {
        refusal = "is not a string"
      }
    }
    guard let rest = instance ?? credentials.restBaseURI else {
      if let refusal { throw .refusedInstanceURL(what: what, problem: refusal) }
      throw .malformed(
        what: what, reason: "no rest_instance_url, and the --tenant file gives no rest_base_uri")
    }
    // Renewed a quarter of its life early, at most five minutes (Salesforce's advice): a
    // request never starts with a token about to lapse.
    // A life past a day (a tenant answering 1e30) is taken as a day: Salesforce's are about
    // 20 minutes, and a larger one would trap the instant's arithmetic.
    let life = min(expires, Self.longestTokenLife)
    let margin = min(300, life / 4)
    return Token(value: value, rest: rest, renewAt: sent + .seconds(life - margin))
  }

  /// One request, given the time left of its exchange at most (never more than the
  /// request's own deadline); none is sent once the exchange's deadline has passed.
  private func send(
    _ request: BoundedFetch.Request, what: String, uri: String, until: ContinuousClock.Instant
  ) async throws(TenantFailure) -> BoundedFetch.Answer {
    let left = (until - now()) / .seconds(1)
    guard left > 0 else { throw .exchangeLate(what: what, seconds: exchangeDeadline) }
    let within = min(http.deadline, left)
    switch await http.send(request, within: within) {
    case .success(let answer): return answer
    case .failure(.late):
      if within < http.deadline { throw .exchangeLate(what: what, seconds: exchangeDeadline) }
      throw .late(what: what, seconds: http.deadline)
    case .failure(.tooLarge):
      throw .malformed(what: what, reason: "larger than \(Self.largestAnswer) bytes")
    case .failure(.unreachable(let reason)): throw .unreachable(uri: uri, reason: reason)
    case .failure(.notHTTP(let reason)):
      throw .malformed(what: what, reason: "not an HTTP answer RegScope can take: \(reason)")
    case .failure(.unsendableHeader(let name)):
      throw .malformed(
        what: what,
        reason:
          "its \(name) header would carry a control character (the tenant's token has one), so the request was not sent"
      )
    }
  }

  /// Waits as a 429 asks (Retry-After, else the body's `retryAfter`), or throws when it names
  /// no wait, asks too long, or this request has waited enough.
  private func waitOut(
    _ answer: BoundedFetch.Answer, what: String, retries: inout Int,
    until: ContinuousClock.Instant
  ) async throws(TenantFailure) {
    let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
    // Read as a whole number in range, never `intValue` (which wraps 1e30 to nonsense).
    let code = (object?["errorcode"] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) }
    let after =
      answer.headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds)
      ?? (object?["retryAfter"] as? NSNumber)?.doubleValue
    // `Retry-After: nan` (or -1) parses as a Double: a wait that is no number is none named.
    let named = after.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    guard let after = named, after <= Self.longestWait,
      retries < Self.throttleRetries
    else {
      throw .throttled(what: what, errorCode: code, retryAfter: named)
    }
    // A wait that would end past the exchange's deadline is not begun.
    guard now() + .seconds(after) < until else {
      throw .exchangeLate(what: what, seconds: exchangeDeadline)
    }
    retries += 1
    await wait(.seconds(after))
  }

  /// A `Retry-After` as a number of seconds: decimal digits, optionally a decimal fraction
  /// (`30`, `1.5`), nothing else. `0x10`, `1e20`, `+5` and an HTTP-date are not a number of
  /// seconds (Swift's `Double` would take the first two), so no wait is read from them.
  static func retryAfterSeconds(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: [" ", "\t"])
    let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let digits = { (part: Substring) in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
    guard let whole = parts.first, digits(whole), parts.count == 1 || digits(parts[1]) else {
      return nil
    }
    return Double(trimmed)
  }

  /// OAuth's `error` and `error_description`, when the body has them.
  static func oauthError(_ body: [UInt8]) -> (error: String?, detail: String?) {
    let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    return (object?["error"] as? String, object?["error_description"] as? String)
  }

  /// A REST error's `message`, when the body has one.
  static func message(_ body: [UInt8]) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    return object?["message"] as? String
  }
}
