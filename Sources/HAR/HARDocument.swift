import EngagementCore
import Foundation
import RegistrationCore
import Synchronization

/// Exchanges written as a HAR 1.2 document, every secret masked: the access token in
/// `Authorization` and the subscriber tokens. A masked token keeps a fingerprint, so a capture
/// read back still shows whether the app sent back the token it was given.
public enum HARDocument {
  public static let creatorVersion = RegScopeVersion.current

  public static func encode(_ exchanges: [CapturedExchange]) -> Data {
    let document = Document(
      log: Log(
        creator: Creator(name: "RegScope", version: creatorVersion),
        entries: exchanges.map(entry)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(document)) ?? Data(#"{"log":{"version":"1.2","entries":[]}}"#.utf8)
  }

  /// A document's text up to its first entry, and after its last: a capture on disk is the
  /// head, the entries separated by commas, and the tail, so an entry is appended by writing
  /// over the tail.
  public static let head = Data(
    (#"{"log":{"version":"1.2","creator":{"name":"RegScope","version":"\#(creatorVersion)"},"pages":[],"entries":["#)
      .utf8)
  public static let tail = Data("\n]}}\n".utf8)

  /// One exchange as an entry of the document, compact, keys sorted, as the capture file
  /// appends it: written by hand, as it is on every request's path (Foundation's encoder took
  /// a sixth of the receiving path), into `buffer`'s room when one is given
  /// (`CompactJSON.init(reusing:reservingFor:)`). A test holds it to what JSONEncoder writes
  /// of the same entry.
  public static func entryBytes(
    _ exchange: CapturedExchange, reusing buffer: consuming [UInt8] = []
  ) -> [UInt8] {
    var out = CompactJSON(reusing: buffer, reservingFor: exchange)
    out.write(exchange)
    return out.bytes
  }

  /// The headers a capture may show: tokens masked, everything else as it was.
  public static func masked(_ fields: [HeaderField]) -> [HeaderField] {
    fields.map { HeaderField($0.name, maskedValue($0)) }
  }

  /// A header's value as a capture may show it: a token masked with its fingerprint.
  static func maskedValue(_ field: HeaderField) -> String {
    switch secretKind(field.name) {
    case .none: return field.value
    case .authorization:
      // An app sends the same one on every request: masked once.
      if let known = maskedAuthorizations.withLock({ $0[field.value] }) { return known }
      let masked = maskedAuthorization(field.value)
      maskedAuthorizations.withLock { known in
        if known.count >= 64 { known.removeAll(keepingCapacity: true) }
        known[field.value] = masked
      }
      return masked
    case .whole: return TokenText.fingerprinted(field.value)
    }
  }

  /// "Bearer TOKEN": the scheme kept, the rest masked.
  private static func maskedAuthorization(_ value: String) -> String {
    guard let space = value.utf8.firstIndex(of: UInt8(ascii: " ")) else {
      return TokenText.fingerprinted(value)
    }
    let secret = value[value.index(after: space)...]
    return String(value[...space]) + TokenText.fingerprinted(String(secret))
  }

  /// Held only while the process runs, never written anywhere (as `TokenText`'s own).
  private static let maskedAuthorizations = Mutex<[String: String]>([:])

  private enum SecretKind { case none, authorization, whole }

  /// Whether the header's value is masked whole (`TokenText.fingerprinted`).
  static func isWholeSecret(_ name: String) -> Bool { secretKind(name) == .whole }

  /// Which headers hold a secret, told apart without lowercasing every header's name.
  /// Told by length first: nearly every header's name has none of these lengths, and a
  /// capture asks this of each header twice.
  private static func secretKind(_ name: String) -> SecretKind {
    switch name.utf8.count {
    case 13: CapturedExchange.sameName(name, "authorization") ? .authorization : .none
    case 18: CapturedExchange.sameName(name, "x-subscriber-token") ? .whole : .none
    case 6: CapturedExchange.sameName(name, "cookie") ? .whole : .none
    case 10: CapturedExchange.sameName(name, "set-cookie") ? .whole : .none
    default: .none
    }
  }

  static func entry(_ exchange: CapturedExchange) -> Entry {
    let requestHeaders = masked(exchange.requestHeaders)
    let responseHeaders = masked(exchange.responseHeaders)
    let requestType = CapturedExchange.value(of: "Content-Type", in: exchange.requestHeaders)
    let responseType = CapturedExchange.value(of: "Content-Type", in: exchange.responseHeaders)
    let milliseconds = (exchange.duration * 1000).rounded()
    return Entry(
      startedDateTime: DateText.utcStamp(Date(timeIntervalSince1970: exchange.startedAt.seconds)),
      time: milliseconds,
      request: Request(
        method: exchange.method, url: exchange.url, httpVersion: "HTTP/1.1", cookies: [],
        headers: requestHeaders.map { Header(name: $0.name, value: $0.value) },
        queryString: exchange.query.sorted { $0.key < $1.key }.map {
          Header(name: $0.key, value: $0.value)
        },
        postData: exchange.requestBody.isEmpty
          ? nil
          : Content(mimeType: requestType ?? "application/json", text: text(exchange.requestBody)),
        headersSize: -1, bodySize: exchange.requestBody.count),
      response: Response(
        status: exchange.status ?? 0, statusText: "", httpVersion: "HTTP/1.1", cookies: [],
        headers: responseHeaders.map { Header(name: $0.name, value: $0.value) },
        content: Content(
          size: exchange.responseBody.count, mimeType: responseType ?? "application/json",
          text: text(exchange.responseBody)),
        redirectURL: "", headersSize: -1,
        bodySize: exchange.status == nil ? -1 : exchange.responseBody.count,
        _error: exchange.error),
      cache: Cache(), timings: Timings(send: 0, wait: milliseconds, receive: 0))
  }

  /// Bodies are JSON text; anything else is kept as valid UTF-8 (a HAR holds text).
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  struct Document: Encodable { var log: Log }
  struct Log: Encodable {
    var version = "1.2"
    var creator: Creator
    var pages: [String] = []
    var entries: [Entry]
  }
  struct Creator: Encodable {
    var name: String
    var version: String
  }
  struct Entry: Encodable {
    var startedDateTime: String
    var time: Double
    var request: Request
    var response: Response
    var cache: Cache
    var timings: Timings
  }
  struct Header: Encodable {
    var name: String
    var value: String
  }
  struct Request: Encodable {
    var method: String
    var url: String
    var httpVersion: String
    var cookies: [Header]
    var headers: [Header]
    var queryString: [Header]
    var postData: Content?
    var headersSize: Int
    var bodySize: Int
  }
  struct Content: Encodable {
    var size: Int?
    var mimeType: String
    var text: String

    init(size: Int? = nil, mimeType: String, text: String) {
      self.size = size
      self.mimeType = mimeType
      self.text = text
    }
  }
  struct Response: Encodable {
    var status: Int
    var statusText: String
    var httpVersion: String
    var cookies: [Header]
    var headers: [Header]
    var content: Content
    var redirectURL: String
    var headersSize: Int
    var bodySize: Int
    /// Why no answer came (Chrome's name for it).
    var _error: String?
  }
  struct Cache: Encodable {}
  struct Timings: Encodable {
    var send: Double
    var wait: Double
    var receive: Double
  }
}
