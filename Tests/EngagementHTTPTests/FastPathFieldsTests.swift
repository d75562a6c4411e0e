import EngagementCore
import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import EngagementHTTP

/// The fast path reads a head as NIO parsed it; the full path reads it after `HTTPTypes`'
/// conversion. The fields, the authority and the capture's headers must come out the same.
@Suite("the fast path's reading of a head")
struct FastPathFieldsTests {
  static let heads: [[(String, String)]] = [
    [("Host", "127.0.0.1:8080"), ("Content-Type", "application/json"), ("Content-Length", "12")],
    // A second Host stays a field; names keep their case; repeated fields are joined.
    [
      ("host", "a.example"), ("HOST", "b.example"), ("authorization", "Bearer one"),
      ("Authorization", "Bearer two"), ("X-SDK-Version", "10.0.0"),
    ],
    // Values HTTPField makes legal: control characters, and a DEL.
    [("User-Agent", "agent\u{1}with\u{7F}controls"), ("x-subscriber-token", "rs-\u{0}x")],
    // No Host at all; odd but legal names and values.
    [("X-Odd_Name.1", "a\tb c"), ("Connection", "keep-alive, Close"), ("Expect", "100-continue")],
  ]

  @Test("fields, authority and the capture's headers as HTTPTypes reads them", arguments: heads)
  func sameAsHTTPTypes(_ pairs: [(String, String)]) throws {
    let head = HTTPRequestHead(
      version: .http1_1, method: .POST, uri: "/device/v1/registration",
      headers: HTTPHeaders(pairs))
    let fields = HeadFields(head.headers)
    let converted = try HTTPRequest(head, secure: false, splitCookie: false)
    #expect(fields.authority == converted.authority)
    #expect(fields.fields == [HeaderField](converted.headerFields))
    #expect(fields.authorization == converted.headerFields[.authorization])
    #expect(fields.userAgent == converted.headerFields[.userAgent])
    #expect(fields.contentLength == converted.headerFields[.contentLength])
    #expect(fields.subscriberToken == converted.headerFields[DeviceRoutes.subscriberToken])
    #expect(fields.sdkVersion == converted.headerFields[DeviceRoutes.sdkVersion])
    #expect(
      fields.framedOtherwise
        == (converted.headerFields[.transferEncoding] != nil
          || converted.headerFields[.expect] != nil))
  }

  @Test("Connection: close is read in any case and among other tokens")
  func closes() {
    for (value, closes) in [("close", true), ("Keep-Alive, CLOSE", true), ("keep-alive", false)] {
      let fields = HeadFields(HTTPHeaders([("connection", value)]))
      #expect(fields.closes == closes, "\(value)")
    }
  }

  @Test(
    "an answer's fields, one list for the capture, Hummingbird's response and the fast path's wire",
    arguments: [(12, nil, nil), (0, 30.0, nil), (57, 0.4, "rs-0123"), (3, nil, "rs-4567")]
      as [(Int, Double?, String?)])
  func answerFields(length: Int, retryAfter: Double?, token: String?) throws {
    let fields = FrontRules.answerFields(length: length, retryAfter: retryAfter, token: token)
    let full = EngagementRoutes.json(
      200, Array(repeating: 0x20, count: length), retryAfter: retryAfter, token: token
    ).headers
    #expect(fields == [HeaderField](full))
    #expect(fields.first?.name == "Content-Type")
    #expect(fields.contains { $0.name == "X-Subscriber-Token" } == (token != nil))
  }
}
