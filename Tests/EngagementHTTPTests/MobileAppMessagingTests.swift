import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

/// The Mobile App Messaging SDK beside MobilePush (SDK-FACTS, "A second registration"): its
/// calls answered 2xx with `{}`, shown on their device's timeline with their fields, never
/// judged; a device that only ran that SDK so far is found all the same.
@Suite("Mobile App Messaging calls over loopback", .serialized, .timeLimit(.minutes(10)))
struct MobileAppMessagingTests {
  typealias Rig = WatchOverHTTPTests.Rig
  static let token = "f1e2d3c4b5a6978812345678abcdef00"
  static let body =
    #"{"eventId":"ev-1","registrationId":"reg-9","deviceId":"MAM-ONLY","dateTimeInDevice":"2026-11-25T10:00:00Z","#
    + #""deviceSystemToken":"\#(token)","pushEnabled":true,"deviceTimeZone":"Europe/Paris","#
    + #""deviceModel":"Pixel 8","devicePlatform":"Android","deviceVersion":"14","sdkVersion":"1.2.0","#
    + #""mobileAppId":"mam-app","attributes":{"Tier":"gold"},"hash":"h1"}"#

  static func timeline(_ rig: Rig, _ device: String) async throws -> [String: Any] {
    let (status, _, text) = try await rig.raw(
      "GET", "/api/devices/\(device)/registrations", headers: [])
    #expect(status == 200, "\(text)")
    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("a registration of a device MobilePush has not seen is on its timeline, with its fields")
  func registrationShown() async throws {
    let rig = try await Rig()
    let (status, _, answer) = try await rig.raw(
      "POST", "/platform/messaging/mobileapp/v1/events/register",
      headers: Rig.android + [("x-sfdc-mobile-app-id", "mam-app")], body: Self.body)
    #expect(status == 200 && answer == "{}")
    let timeline = try await Self.timeline(rig, "MAM-ONLY")
    #expect(timeline["registrationCount"] as? Int == 0)
    let calls = try #require(timeline["mobileAppMessaging"] as? [[String: Any]])
    #expect(calls.count == 1)
    #expect(calls.first?["title"] as? String == "Mobile App Messaging registration")
    let fields = (calls.first?["fields"] as? [[String: String]] ?? []).map {
      ($0["name"] ?? "", $0["value"] ?? "")
    }
    // In the order the SDK was seen to send them, then the others; the push token masked.
    #expect(fields.prefix(3).map(\.0) == ["eventId", "registrationId", "deviceId"])
    #expect(fields.last?.0 == "hash")
    #expect(fields.contains { $0 == ("pushEnabled", "true") })
    #expect(fields.contains { $0 == ("attributes", #"{"Tier":"gold"}"#) })
    let token = try #require(fields.first { $0.0 == "deviceSystemToken" }?.1)
    #expect(!token.contains(Self.token) && !token.isEmpty)
    // Never judged: no findings, and the MobilePush registration after it is judged alone.
    let client = try #require(timeline["client"] as? [String: Any])
    #expect((client["findings"] as? [String: Int])?.isEmpty == true)
    _ = try await rig.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: "MAM-ONLY", app: watchAppID))
    let after = try await Self.timeline(rig, "MAM-ONLY")
    #expect(after["registrationCount"] as? Int == 1)
    #expect((after["mobileAppMessaging"] as? [Any])?.count == 1)
    #expect((after["client"] as? [String: Any])?["profile"] as? String == "android@10.0.0")
    // In the device's capture, the call as it went over the wire, its push token masked.
    let (harStatus, _, har) = try await rig.raw("GET", "/api/devices/MAM-ONLY/har", headers: [])
    #expect(harStatus == 200 && har.contains("mobileapp/v1/events/register"), "\(har.prefix(300))")
    #expect(!har.contains(watchToken))
    await rig.stop()
  }

  @Test("a capture's Mobile App Messaging call reads as a line of its device's timeline")
  func captureText() {
    var judge = CaptureJudge()
    judge.add(
      CapturedExchange(
        startedAt: Instant(1_795_341_600), method: "POST",
        url: "https://mam.example.com/platform/messaging/mobileapp/v1/events/register",
        requestHeaders: [], requestBody: Array(Self.body.utf8), status: 200))
    let text = CaptureText.report(judge, sources: ["capture.har"])
    #expect(text.contains("Mobile App Messaging registration  200  (not judged: not MobilePush)"))
    #expect(text.contains("      mobileAppId: mam-app"))
    #expect(!text.contains(Self.token))
  }
}
