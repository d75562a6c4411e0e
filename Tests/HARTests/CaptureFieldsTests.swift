import EngagementCore
import Foundation
import HAR
import RegistrationCore
import TestSupport
import Testing

/// `regctl judge --fields` and `--explain` (#30): a capture's registrations replayed through
/// processing with the table given, told as the receiver tells them.
@Suite("a capture's field stories")
struct CaptureFieldsTests {
  @Test("the attribute rejected with its registration, and the sentence with the fix")
  func replayed() throws {
    let document = har([
      entry(
        "2026-11-22T10:00:00.000Z",
        body: sdkBody(device: "CAP", key: "ada@example.com", attributes: ["FirstName": "Ada"])),
      entry(
        "2026-11-22T10:05:00.000Z",
        body: sdkBody(
          device: "CAP", key: "ada@example.com", attributes: ["FirstName": "Bob", "Plan": "pro"])),
      // Refused by the tenant: never processed, so no part of the story.
      entry(
        "2026-11-22T10:06:00.000Z", body: sdkBody(device: "CAP", attributes: ["FirstName": "Cy"]),
        status: 401),
    ])
    let judge = try HARReader.judge(
      documents: [("capture.har", document)],
      replay: FieldReplay(definedAttributes: ["FirstName"]))
    var replay = try #require(judge.replay)
    let story = try #require(replay.stories(judge.watch).first)
    let first = try #require(story.fields.first { $0.name == "FirstName" })
    #expect(first.events.map(\.value) == ["Ada", "Bob"])
    #expect(first.holds == "FirstName=Ada")
    let sentences = FieldExplanation.sentences(story)
    // The newest request was refused by the tenant: that comes first, with its fix.
    #expect(
      sentences.first?.hasPrefix("The server refused this device's registration once (S1, 401)")
        == true, "\(sentences)")
    #expect(
      sentences.dropFirst().first
        == "FirstName=Bob (10:05:00 UTC) was rejected with its whole registration because Plan is not in the demographics table (S5); the contact still has FirstName=Ada. Fix: add Plan to the app's attribute set (on RegScope's server: --defined-attributes or PUT /api/demographics; on the tenant: MobilePush Demographics in Contact Builder), or stop sending it.",
      "\(sentences)")
    // Without a table every attribute is accepted: nothing to explain but that.
    let open = try HARReader.judge(
      documents: [("capture.har", document)], replay: FieldReplay(definedAttributes: nil))
    var openReplay = try #require(open.replay)
    let accepted = try #require(openReplay.stories(open.watch).first)
    #expect(
      FieldExplanation.sentences(accepted).contains {
        $0.hasPrefix("Processing accepted every registration")
      })
  }
}
