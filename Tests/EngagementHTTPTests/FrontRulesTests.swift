import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementHTTP

/// The front's rules (`FrontRules`), each held to its answer, and the two ways a registration
/// is answered (the fast path and Hummingbird's full path) held to the same answer for each.
@Suite("the front's rules, on both paths", .serialized, .timeLimit(.minutes(10)))
struct FrontRulesTests {
  static let rules = FrontRules(
    hostNames: ["receiver.example"], maxBodyBytes: 1 << 20, scheme: "http")

  static func message(_ body: [UInt8]) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    return object?["message"] as? String
  }

  @Test(
    "the head: two Hosts 400, a Host it was not told about 421, a declared length past the limit 413"
  )
  func head() {
    #expect(
      Self.rules.refusal(authority: "127.0.0.1", hostRepeated: true, contentLength: nil)?.status
        == 400)
    let misdirected = Self.rules.refusal(
      authority: "evil.example", hostRepeated: false, contentLength: nil)
    #expect(misdirected?.status == 421)
    #expect(
      Self.rules.refusal(
        authority: "receiver.example:8080", hostRepeated: false, contentLength: nil) == nil)
    let large = Self.rules.refusal(
      authority: "127.0.0.1", hostRepeated: false, contentLength: "99999999999999999999999")
    #expect(large?.status == 413 && large?.closes == true)
    #expect(
      large.flatMap { Self.message($0.body) }?.hasPrefix(
        "the body is larger than this server takes (at most 1048576 bytes)") == true)
    #expect(
      Self.rules.refusal(authority: nil, hostRepeated: false, contentLength: "1048576") == nil)
    #expect(
      Self.rules.refusal(authority: nil, hostRepeated: false, contentLength: "12ab") == nil,
      "only digits are a length: the parser refuses the rest")
  }

  @Test("a refused token reads no more than a refusal needs; a body too large has the one wording")
  func bodies() {
    let refused = EngagementServerCore.authorize(
      "Bearer wrong", settings: ServerSettings(appID: "app", accessToken: "token-0123456789"))
    #expect(Self.rules.registrationBodyLimit(refused: refused) == FrontRules.unauthorizedBodyLimit)
    #expect(Self.rules.registrationBodyLimit(refused: nil) == 1 << 20)
    let (validation, closes) = Self.rules.registration(
      authorization: "Bearer token-0123456789", refused: nil, body: nil,
      settings: ServerSettings(appID: "app", accessToken: "token-0123456789"))
    guard case .invalid(_, let refusal) = validation else {
      Issue.record("a body too large is refused")
      return
    }
    #expect(closes && refusal.status == 413 && refusal.reason == Self.rules.tooLargeReason())
    #expect(Self.message(Self.rules.tooLargeBody()) == Self.rules.tooLargeReason())
  }

  @Test(
    "each head rule answers alike on the fast path and the full path",
    arguments: [
      "Host: 127.0.0.1\r\nHost: 127.0.0.2\r\n",
      "Host: evil.example\r\n",
    ])
  func bothPaths(_ host: String) async throws {
    let body = sdkBody(app: watchAppID)
    let request =
      "POST /device/v1/registration HTTP/1.1\r\n\(host)Authorization: Bearer \(watchToken)\r\n"
      + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n\(body)"
    let fast = try await FastPathTests.Rig(fastPath: true)
    let full = try await FastPathTests.Rig(fastPath: false)
    let answers = (try await fast.send([request]), try await full.send([request]))
    await fast.front.stop()
    await full.front.stop()
    #expect(answers.0.count == 1 && answers.0 == answers.1, "\(answers.0) vs \(answers.1)")
    #expect(answers.0.first?.statusLine.hasPrefix("HTTP/1.1 4") == true)
  }
}
