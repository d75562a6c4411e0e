import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

/// `GET /api/devices/{id}/fields` and `/explain` over loopback, as a client reads them after
/// an attribute was rejected with its registration (#30).
@Suite("a device's fields over loopback", .serialized, .timeLimit(.minutes(10)))
struct FieldsOverHTTPTests {
  typealias Rig = WatchOverHTTPTests.Rig

  @Test("an attribute rejected with its registration: its story and the sentence with the fix")
  func rejected() async throws {
    let rig = try await Rig()
    try await rig.server.defineAttributes(["FirstName"])
    for (at, attributes) in [
      (0.0, ["FirstName": "Ada"]), (400, ["FirstName": "Bob", "Plan": "pro"]),
    ] {
      rig.clock.advance(to: Instant(at))
      let (status, _, _) = try await rig.raw(
        "POST", "/device/v1/registration", headers: Rig.android,
        body: sdkBody(device: "FIELDS", app: watchAppID, attributes: attributes))
      #expect(status == 201)
      rig.clock.advance(to: Instant(at + 300))
      await rig.server.processDue()
    }
    let (status, headers, text) = try await rig.raw(
      "GET", "/api/devices/FIELDS/fields", headers: [])
    #expect(status == 200 && headers["content-type"] == "application/json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let fields = object["fields"] as? [[String: Any]] ?? []
    let first = try #require(fields.first { $0["name"] as? String == "FirstName" })
    #expect(first["holds"] as? String == "FirstName=Ada")
    let events = first["events"] as? [[String: Any]] ?? []
    #expect(events.map { $0["outcome"] as? String } == ["accepted", "rejected"])
    #expect(
      (events.last?["why"] as? String)?.contains("because Plan is not in the demographics table")
        == true)
    let (explainStatus, _, explained) = try await rig.raw(
      "GET", "/api/devices/FIELDS/explain", headers: [])
    #expect(explainStatus == 200)
    let sentences =
      (try JSONSerialization.jsonObject(with: Data(explained.utf8)) as? [String: Any])?["sentences"]
      as? [String] ?? []
    #expect(
      sentences.first?.contains("FirstName=Bob") == true
        && sentences.first?.contains("Fix: add Plan") == true, "\(sentences)")
    let (unknown, _, _) = try await rig.raw("GET", "/api/devices/NOBODY/fields", headers: [])
    #expect(unknown == 404)
    await rig.stop()
  }
}
