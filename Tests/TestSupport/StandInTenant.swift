import Foundation
import Synchronization

/// A stand-in Marketing Cloud tenant on loopback, written from the documented requests and
/// answers (docs/tenant.md cites the pages): `POST /v2/token` with client credentials, and
/// `GET /contacts/v1/attributeSetDefinitions` in pages behind the bearer token, the device
/// registration route and the address search (`StandInDevices`). Each
/// `Behaviour` is one documented failure. It is not a live tenant: it answers what the
/// documentation says, no more.
public final class StandInTenant: Sendable {
  public enum Behaviour: Sendable {
    case good
    /// 401 `invalid_client` to every token request.
    case refuseSecret
    /// The first definitions request is a 429 (errorcode 50100) with `Retry-After: 1`.
    case throttleOnce
    /// The first token issued is refused on the REST call, as an expired one is.
    case expireFirstToken
    /// Tokens that expire at once: every REST call needs a new one.
    case shortLivedTokens
    /// Tokens whose `expires_in` is this JSON number, as written (`1e30`).
    case tokenLife(String)
    /// The definitions come back with `items` that is not an array.
    case malformed
    /// The definitions take this many seconds to come.
    case slow(Double)
    /// The package has no Contacts read scope: 403 on the REST call.
    case noScope
    /// No MobilePush Demographics set.
    case noDemographics
    /// Every address search is a 429 asking for this many seconds, with this errorcode as
    /// written (`50100`, or a hostile `1e30`).
    case throttleSearch(String, errorcode: String = "50100")
    /// Address searches answer `valueSets` in a shape no reader knows.
    case opaqueValueSets
    /// Address searches answer identifiers plain (`"addressKey": "X"`), the shape read before
    /// the reference page's wrapped one; the default answers as the page does.
    case plainIdentifiers
    /// Every address search is answered with exactly these bytes (a documented fixture).
    case replaySearch([UInt8])
    /// Every address search is answered with this status line (`099 Odd`), as a hostile or
    /// broken tenant might.
    case searchStatusLine(String)
    /// Tokens whose `access_token` is this JSON string's content, as written (`tok\\r\\nen`):
    /// a hostile or broken tenant's.
    case tokenText(String)
    /// Tokens whose `rest_instance_url` is this text (JSON-escaped), in place of the stand-in's.
    case instanceURL(String)
    /// Every definitions request is a 429 (the documented body) with this `Retry-After`, as
    /// written (`0x10`, `30.0000001`).
    case throttleDefinitions(retryAfter: String)
    /// The definitions' `count` is this JSON number, as written (`1.5`).
    case definitionsCount(String)
    /// Definitions whose pages never end (two sets a page, `count` a million), every other
    /// request a 429 asking this many seconds (#52: one deadline over the whole exchange).
    case endlessDefinitions(retryAfter: String)
    /// A definitions page of this many empty items (`{}`), as a hostile tenant might.
    case definitionsOfEmptyItems(Int)
    /// A definitions page whose items are this many zeros: values, not objects.
    case definitionsOfZeros(Int)
    /// Definitions whose pages never end and never hold MobilePush Demographics (two other
    /// sets a page, `count` a million): what was not read is not absent.
    case endlessOtherSets
    /// Address searches answer this many addresses a page (`pageNumber`, `pageSize`, `count`),
    /// the page asked by `$page`; the device's own last.
    case pagedSearch(pageSize: Int, filler: Int)
  }

  /// A push address as the stand-in holds it: filed by its device registration route (as
  /// processing files one), or set by a test (`hold`).
  public struct HeldAddress: Sendable {
    public var deviceID: String
    public var values: [String: String]
    public var status = "Active"

    public init(deviceID: String, values: [String: String], status: String = "Active") {
      self.deviceID = deviceID
      self.values = values
      self.status = status
    }
  }

  public static let clientID = "standin-client-id"
  public static let secret = "standin-secret-0123456789abcdef"
  public static let demographics = [
    "Device ID", "System Token", "FirstName", "LastName", "Interests",
  ]

  struct State {
    var port = 0
    var issued = 0
    /// Each token request's body, as sent.
    var tokenBodies: [[UInt8]] = []
    var restCalls: [(path: String, authorization: String?, at: Date)] = []
    /// The MobilePush Demographics attributes it answers now (`define` changes them).
    var demographics = StandInTenant.demographics
    /// Push addresses by contact key.
    var addresses: [String: [HeldAddress]] = [:]
    /// Address searches' bodies, as sent.
    var searches: [[UInt8]] = []
  }

  /// What it was asked, shared with the server's threads.
  final class Shared: Sendable {
    let lock = Mutex(State())
  }

  private let state = Shared()
  private let server: CaptureServer

  public init(_ behaviour: Behaviour = .good) throws {
    let state = self.state
    server = try CaptureServer { request in
      state.lock.withLock { Self.answer(request, behaviour, &$0) }
    }
    state.lock.withLock { $0.port = server.port }
  }

  public var port: Int { server.port }
  public var tokensIssued: Int { state.lock.withLock { $0.issued } }
  /// The token requests' bodies, parsed.
  public var tokenBodies: [[String: Any]] {
    state.lock.withLock { $0.tokenBodies }.map {
      (try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any] ?? [:]
    }
  }
  public var restCalls: [(path: String, authorization: String?, at: Date)] {
    state.lock.withLock { $0.restCalls }
  }

  public func stop() { server.stop() }

  /// The address searches' bodies, parsed.
  public var searches: [[String: Any]] {
    state.lock.withLock { $0.searches }.map {
      (try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any] ?? [:]
    }
  }

  /// What the tenant holds from now on under `contactKey`, as an admin or an import leaves it.
  public func hold(_ contactKey: String, _ addresses: [HeldAddress]) {
    state.lock.withLock { $0.addresses[contactKey] = addresses }
  }

  /// What an admin does in Contact Builder: the set's attributes from now on.
  public func define(_ attributes: [String]) {
    state.lock.withLock { $0.demographics = attributes }
  }

  /// A `--tenant` file for this stand-in (mode 600), under a fresh temporary directory.
  public func file(authPath: String = "", extra: String = "") throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tenant-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("tenant.json").path
    let text = """
      {"client_id": "\(Self.clientID)", "client_secret": "\(Self.secret)", "account_id": 123456,
       "auth_base_uri": "http://127.0.0.1:\(port)\(authPath)/"\(extra)}
      """
    FileManager.default.createFile(
      atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    return path
  }

  private static func answer(
    _ request: CaptureServer.Request, _ behaviour: Behaviour, _ state: inout State
  )
    -> CaptureServer.Reply
  {
    if request.method == "POST" && request.path == "/v2/token" {
      return token(request, behaviour, &state)
    }
    if request.method == "POST" && request.path == "/device/v1/registration" {
      return StandInDevices.register(request, &state)
    }
    if request.method == "POST"
      && request.path.split(separator: "?", maxSplits: 1).first.map(String.init)
        == StandInDevices.searchPath
    {
      guard authorized(request, state) else {
        return .answer("401 Unauthorized", body: #"{"message":"Not Authorized","errorcode":0}"#)
      }
      return StandInDevices.search(request, behaviour, &state)
    }
    guard request.method == "GET", request.path.hasPrefix("/contacts/v1/attributeSetDefinitions")
    else { return .answer("404 Not Found", body: #"{"message":"Not Found"}"#) }
    let authorization = request.header("Authorization")
    state.restCalls.append((request.path, authorization, Date()))
    guard let authorization, authorized(request, state) else {
      return .answer("401 Unauthorized", body: #"{"message":"Not Authorized","errorcode":0}"#)
    }
    switch behaviour {
    case .expireFirstToken where authorization == "Bearer token-1":
      return .answer("401 Unauthorized", body: #"{"message":"Not Authorized","errorcode":0}"#)
    case .throttleOnce where state.restCalls.count == 1:
      return throttled(retryAfter: "1")
    case .throttleDefinitions(let retryAfter):
      return throttled(retryAfter: retryAfter)
    case .noScope:
      return .answer("403 Forbidden", body: #"{"message":"Insufficient privileges","errorcode":0}"#)
    case .malformed:
      return .answer("200 OK", body: #"{"page":1,"pageSize":50,"count":1,"items":"none"}"#)
    case .slow(let seconds):
      return .after(
        seconds: seconds,
        CaptureServer.Reply.answerBytes(
          "200 OK", body: page(1, all: sets(behaviour, state.demographics))))
    case .endlessDefinitions(let retryAfter) where state.restCalls.count % 2 == 1:
      return throttled(retryAfter: retryAfter)
    case .endlessDefinitions:
      let number = Int(query(request.path, "$page") ?? "1") ?? 1
      return .answer(
        "200 OK",
        body: page(1, all: sets(behaviour, state.demographics), count: "1000000")
          .replacingOccurrences(of: #""page":1,"#, with: #""page":\#(number),"#))
    case .definitionsOfEmptyItems(let count):
      let items = Array(repeating: "{}", count: count).joined(separator: ",")
      return .answer("200 OK", body: #"{"page":1,"pageSize":50,"count":1,"items":[\#(items)]}"#)
    case .definitionsOfZeros(let count):
      let items = Array(repeating: "0", count: count).joined(separator: ",")
      return .answer("200 OK", body: #"{"page":1,"pageSize":50,"count":1,"items":[\#(items)]}"#)
    case .endlessOtherSets:
      let number = Int(query(request.path, "$page") ?? "1") ?? 1
      return .answer(
        "200 OK",
        body: page(1, all: sets(.noDemographics, []), count: "1000000")
          .replacingOccurrences(of: #""page":1,"#, with: #""page":\#(number),"#))
    case .definitionsCount(let count):
      let number = Int(query(request.path, "$page") ?? "1") ?? 1
      return .answer(
        "200 OK", body: page(number, all: sets(behaviour, state.demographics), count: count))
    default:
      let number = Int(query(request.path, "$page") ?? "1") ?? 1
      return .answer("200 OK", body: page(number, all: sets(behaviour, state.demographics)))
    }
  }

  /// The documented 429 body (Rate Limiting Errors), its wait in the Retry-After header as
  /// written.
  private static func throttled(retryAfter: String) -> CaptureServer.Reply {
    let body = documented(DocumentedAnswers.rateLimited)
    return .bytes(
      Array(
        ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n"
          + "Retry-After: \(retryAfter)\r\nContent-Length: \(body.utf8.count)\r\n"
          + "Connection: close\r\n\r\n" + body).utf8))
  }

  /// A bearer token this stand-in issued.
  static func authorized(_ request: CaptureServer.Request, _ state: State) -> Bool {
    let valid = (1...max(1, state.issued)).map { "Bearer token-\($0)" }
    return request.header("Authorization").map(valid.contains) ?? false
  }

  private static func token(
    _ request: CaptureServer.Request, _ behaviour: Behaviour, _ state: inout State
  )
    -> CaptureServer.Reply
  {
    let body =
      (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
    state.tokenBodies.append(request.body)
    let refused = documented(DocumentedAnswers.tokenInvalidClient)
    if case .refuseSecret = behaviour { return .answer("401 Unauthorized", body: refused) }
    guard body["grant_type"] as? String == "client_credentials",
      body["client_id"] as? String == clientID, body["client_secret"] as? String == secret
    else { return .answer("401 Unauthorized", body: refused) }
    state.issued += 1
    let expires: String
    switch behaviour {
    case .shortLivedTokens: expires = "0"
    case .tokenLife(let text): expires = text
    default: expires = "1079"
    }
    var token = "token-\(state.issued)"
    if case .tokenText(let text) = behaviour { token = text }
    var instance = "http://127.0.0.1:\(state.port)/"
    if case .instanceURL(let text) = behaviour { instance = jsonEscaped(text) }
    // The documented answer (Access Token for Server-to-Server Integrations), with this
    // stand-in's token, lifetime and loopback instance URLs in place of the page's.
    let answer = documented(DocumentedAnswers.token)
      .replacingOccurrences(
        of:
          #""access_token": "eyJhbGciOiJIUzI1NiIsImtpZCI6IjQiLCJ2ZXIiOiIxIiwidHlwIjoiSldUIn0.example""#,
        with: #""access_token": "\#(token)""#
      )
      .replacingOccurrences(of: #""expires_in": 1079"#, with: #""expires_in": \#(expires)"#)
      .replacingOccurrences(
        of: "https://YOUR_SUBDOMAIN.soap.marketingcloudapis.com/",
        with: "http://127.0.0.1:\(state.port)/"
      )
      .replacingOccurrences(
        of: "https://YOUR_SUBDOMAIN.rest.marketingcloudapis.com/", with: instance)
    return .answer("200 OK", body: answer)
  }

  /// A documented answer's text, as stored (`Tests/Fixtures/documented`).
  static func documented(_ name: String) -> String {
    String(decoding: (try? DocumentedAnswers.bytes(name)) ?? [], as: UTF8.self)
  }

  /// The attribute sets, as the definitions route names them (`key`, `name.value`, attributes).
  private static func sets(_ behaviour: Behaviour, _ demographics: [String]) -> [(
    key: String, name: String, attributes: [String]
  )] {
    var sets = [
      ("EmailAddresses", "Email Addresses", ["Email Address", "HTML Enabled"]),
      ("MobileConnectDemographics", "MobileConnect Demographics", ["Mobile Number", "Locale"]),
    ]
    if case .noDemographics = behaviour { return sets }
    sets.append(("MobilePushDemographics", "MobilePush Demographics", demographics))
    return sets
  }

  /// Two sets a page, whatever `$pageSize` asked: a tenant may give fewer than asked, and the
  /// client must follow `count` (written as `count` when given). Names are JSON-escaped, so an
  /// admin's name with a newline in it is answered as a tenant would.
  private static func page(
    _ number: Int, all: [(key: String, name: String, attributes: [String])], count: String? = nil
  )
    -> String
  {
    let size = 2
    let slice = all.dropFirst((number - 1) * size).prefix(size)
    let items = slice.map { set in
      let attributes = set.attributes.map { name in
        #"{"id":"\#(UUID().uuidString)","key":"\#(jsonEscaped(name.replacingOccurrences(of: " ", with: "")))","name":{"value":"\#(jsonEscaped(name))"},"dataType":"Text"}"#
      }
      return
        #"{"id":"\#(UUID().uuidString)","key":"\#(set.key)","name":{"value":"\#(set.name)"},"attributes":[\#(attributes.joined(separator: ","))]}"#
    }
    return
      #"{"page":\#(number),"pageSize":\#(size),"count":\#(count ?? String(all.count)),"items":[\#(items.joined(separator: ","))]}"#
  }

  /// `text` as the inside of a JSON string.
  static func jsonEscaped(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst(2).dropLast(2), as: UTF8.self)
  }

  private static func query(_ path: String, _ name: String) -> String? {
    URLComponents(string: path)?.queryItems?.first { $0.name == name }?.value
  }
}
