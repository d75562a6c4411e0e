import Foundation
import TestSupport
import Testing

/// `regctl serve` reads a registration body as a strict JSON reader does, and a key twice as
/// the tenant does (its last value), through the fast path and the full one alike.
@Suite("regctl serve reads a body as the tenant does", .serialized, .timeLimit(.minutes(10)))
struct BodyReadingBinaryTests {
  static func post(_ serve: ServeProcess, _ body: String) async throws -> String {
    try await serve.request(
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        + "user-agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0\r\n"
        + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json\r\n"
        + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)")
  }

  static func devices(_ serve: ServeProcess) async throws -> [[String: Any]] {
    let answer = try await serve.request(
      "GET /api/devices HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    let json = String(answer.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return try #require(object?["devices"] as? [[String: Any]], "\(answer)")
  }

  @Test(
    "R6.2 a deviceID and a subscriberKey sent twice: the last values are the device, and a duplicateKey violation names both"
  )
  func duplicatedKeys() async throws {
    let serve = try await ServeProcess.start()
    let body =
      #"{"deviceID":"REAL","etAppId":"app","platform":"Android","subscriberKey":"alice","tags":["ALL"],"timeZone":"0","deviceID":"OTHER","subscriberKey":"mallory"}"#
    let answer = try await Self.post(serve, body)
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    let devices = try await Self.devices(serve)
    #expect(!devices.contains { $0["deviceID"] as? String == "REAL" })
    let device = try #require(devices.first { $0["deviceID"] as? String == "OTHER" })
    #expect(device["contactKey"] as? String == "mallory")
    let client = try #require(device["client"] as? [String: Any])
    #expect(client["findings"] as? [String: Int] == ["duplicateKey": 1])
    // The finding names each key and both its values, and the fix.
    let timeline = try await serve.request(
      "GET /api/devices/OTHER/registrations HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    #expect(timeline.contains(#"deviceID twice (\"REAL\", then \"OTHER\")"#), "\(timeline)")
    #expect(timeline.contains(#"subscriberKey twice (\"alice\", then \"mallory\")"#))
    #expect(timeline.contains("\"violation\"") && timeline.contains("R6.2"))
    try await serve.stop()
  }

  @Test("a trailing comma is a 400 that says what and where; tags null then a list keeps the list")
  func strictBody() async throws {
    let serve = try await ServeProcess.start()
    let comma = #"{"deviceID":"D1","etAppId":"app","platform":"Android","tags":["vip",]}"#
    let refused = try await Self.post(serve, comma)
    #expect(refused.hasPrefix("HTTP/1.1 400"), "\(refused)")
    #expect(refused.contains("invalidBody"))
    #expect(
      refused.contains(#"a trailing comma before \"]\": JSON allows none at line 1, column 68"#),
      "\(refused)")
    let tags = #"{"deviceID":"D2","etAppId":"app","platform":"Android","tags":null,"tags":["a"]}"#
    let taken = try await Self.post(serve, tags)
    #expect(taken.hasPrefix("HTTP/1.1 201"), "\(taken)")
    let devices = try await Self.devices(serve)
    let device = try #require(devices.first { $0["deviceID"] as? String == "D2" })
    #expect(device["tags"] as? [String] == ["a"])
    try await serve.stop()
  }
}
