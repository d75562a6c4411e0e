import EngagementCore
import Foundation
import RegistrationCore
import Testing

@testable import HAR

/// The capture's hand-written entries say exactly what Foundation's encoder says of them.
@Suite("a capture's entries written by hand")
struct CompactJSONTests {
  static func encoder(_ exchange: CapturedExchange) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(HARDocument.entry(exchange))
  }

  /// What the capture promises: Foundation's bytes exactly, with the invisible characters
  /// every JSON of RegScope escapes (`JSONText`) escaped.
  static func promised(_ exchange: CapturedExchange) throws -> [UInt8] {
    JSONText.escapingInvisibles(Array(try encoder(exchange)))
  }

  /// Where two byte strings first differ, with a little of each from there, for a failure.
  static func difference(_ mine: [UInt8], _ theirs: [UInt8]) -> String {
    let at =
      zip(mine.indices, zip(mine, theirs)).first { $0.1.0 != $0.1.1 }?.0
      ?? min(mine.count, theirs.count)
    func part(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[at..<min(bytes.count, at + 60)], as: UTF8.self)
    }
    return "from byte \(at): mine \(part(mine)) / Foundation's \(part(theirs))"
  }

  static let exchanges: [CapturedExchange] = [
    CapturedExchange(
      startedAt: Instant(1_795_341_600.123), duration: 0.0125, method: "POST",
      url: "http://127.0.0.1:8080/device/v1/registration?x=1&a=%2F",
      requestHeaders: [
        HeaderField("Authorization", "Bearer secret-token-0123456789"),
        HeaderField("User-Agent", "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8)"),
        HeaderField("Content-Type", "application/json; charset=utf-8"),
      ],
      requestBody: Array(#"{"deviceID":"D\n1","tags":["é","😀","\u0001","a/b"]}"#.utf8),
      status: 201, responseHeaders: [HeaderField("X-Subscriber-Token", "tok")],
      responseBody: Array(#"{"received":true}"#.utf8)),
    CapturedExchange(
      startedAt: Instant(0), method: "POST", url: "http://h/device/v1/registration",
      status: nil, error: "no answer: the connection was cut \u{1B}[2J"),
    CapturedExchange(
      startedAt: Instant(12.5), duration: 3.3339, method: "GET",
      url: "http://h/device/v1/app/message?deviceid=\u{7F}\u{2028}", status: 503,
      responseBody: [0xFF, 0xFE, 0x41]),
    // A fleet's registration: a body of quotes, a token each way, a name in another case.
    CapturedExchange(
      startedAt: Instant(1_795_341_600.5), duration: 0.00042, method: "POST",
      url: "http://127.0.0.1:8080/device/v1/registration",
      requestHeaders: [
        HeaderField("AUTHORIZATION", "Bearer load-token-0123456789"),
        HeaderField("x-subscriber-token", "rs-0123456789abcdef"),
        HeaderField("Cookie", "a=b"), HeaderField("Set-Cookie", "c=d"),
        // A secret masked whole that JSON must escape (its first characters are shown).
        HeaderField("Cookie", "\"\\\u{1}é-and-the-rest-of-it"),
      ],
      requestBody: Array(
        #"{"attributes":[{"key":"Tier","value":"gold "vip" \ café ü"}],"deviceID":"FLEET-1","tags":["ALL"]}"#
          .utf8),
      status: 201,
      responseHeaders: [
        HeaderField("Content-Type", "application/json"),
        HeaderField("X-Subscriber-Token", "rs-fedcba9876543210"),
      ],
      responseBody: Array(#"{"received":true,"registrationId":12}"#.utf8)),
  ]

  @Test(
    "the same JSON as JSONEncoder's, for bodies, errors, escapes and odd bytes", arguments: 0..<4)
  func sameAsEncoder(_ index: Int) throws {
    let exchange = Self.exchanges[index]
    let mine = HARDocument.entryBytes(exchange)
    let theirs = try Self.promised(exchange)
    #expect(mine == theirs, "\(Self.difference(mine, theirs))")
    #expect(!mine.contains(0x0A), "compact: one line")
    // No token is written whole.
    for field in exchange.requestHeaders + exchange.responseHeaders
    where ["authorization", "x-subscriber-token", "cookie", "set-cookie"].contains(
      field.name.lowercased())
    {
      let secret = field.value.split(separator: " ").last.map(String.init) ?? field.value
      #expect(
        !String(decoding: mine, as: UTF8.self).contains(secret), "\(field.name) written whole")
    }
  }

  @Test("a header is found by its name in any case, and only by a name that is the same")
  func headerNames() {
    let fields = [
      HeaderField("X-A[", "bracket"), HeaderField("content-TYPE", "json"),
      HeaderField("Content-Typé", "accent"),
    ]
    #expect(CapturedExchange.value(of: "Content-Type", in: fields) == "json")
    #expect(CapturedExchange.value(of: "CONTENT-TYPE", in: fields) == "json")
    // "[" and "{" differ by the bit that folds letters: not a letter, so not the same.
    #expect(CapturedExchange.value(of: "x-a{", in: fields) == nil)
    #expect(CapturedExchange.value(of: "X-A[", in: fields) == "bracket")
    #expect(CapturedExchange.value(of: "Content-Typ", in: fields) == nil)
    #expect(CapturedExchange.value(of: "content-typé", in: fields) == "accent")
  }

  @Test(
    "times and sizes a user or a clock can make odd still give one line of valid JSON",
    arguments: [1e20, 99_999_999_999_999_999_999, -1, .nan, .infinity, 0])
  func oddNumbers(_ value: Double) throws {
    let exchange = CapturedExchange(
      startedAt: Instant(value), duration: value, method: "POST\u{1B}[2J",
      url: "http://h/device/v1/registration?x=\u{7}", requestHeaders: [HeaderField("X-\u{0}", "")],
      requestBody: [], status: Int.min, responseBody: Array("\u{1B}".utf8))
    let entry = Data(HARDocument.entryBytes(exchange))
    #expect(!entry.contains(0x0A) && !entry.contains(0x1B) && !entry.contains(0x07))
    #expect(try JSONSerialization.jsonObject(with: entry) is NSDictionary)
  }

  @Test("a body of escapes, past the room counted for it, is written whole and the same")
  func bodyOfEscapes() throws {
    // Each control character takes six bytes (`\u0001`): three times the room made for a body.
    let body = [UInt8](repeating: 0x01, count: 3_000) + Array(#""\"#.utf8)
    let exchange = CapturedExchange(
      startedAt: Instant(1_795_341_600), method: "POST", url: "http://h/device/v1/registration",
      requestHeaders: [HeaderField("X-Odd", String(repeating: "\u{1}\u{202E}", count: 200))],
      requestBody: body, status: 400, responseBody: body)
    let mine = HARDocument.entryBytes(exchange)
    let theirs = try Self.promised(exchange)
    #expect(mine == theirs, "\(Self.difference(mine, theirs))")
    #expect(!mine.contains(0x01))
  }

  @Test("tokens masked first, last and side by side in a list of headers")
  func maskedAnywhere() throws {
    let exchange = CapturedExchange(
      startedAt: Instant(1_795_341_600), method: "POST", url: "http://h/device/v1/registration",
      requestHeaders: [
        HeaderField("X-Subscriber-Token", "rs-first-0123456789"),
        HeaderField("Cookie", "session=second"), HeaderField("cookie", "third=3"),
        HeaderField("Host", "h"),
      ],
      status: 201,
      responseHeaders: [
        HeaderField("Content-Type", "application/json"),
        HeaderField("Set-Cookie", "last=0123456789"),
      ],
      responseBody: Array("{}".utf8))
    let mine = HARDocument.entryBytes(exchange)
    let theirs = try Self.promised(exchange)
    #expect(mine == theirs, "\(Self.difference(mine, theirs))")
    for secret in ["rs-first-0123456789", "session=second", "third=3", "last=0123456789"] {
      #expect(!String(decoding: mine, as: UTF8.self).contains(secret))
    }
  }
}
