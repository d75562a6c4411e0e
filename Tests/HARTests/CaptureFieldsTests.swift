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
    #expect(
      sentences.first
        == "FirstName=Bob (10:05:00 UTC) was rejected with its whole registration because Plan is not in the demographics table (S5); the contact still has FirstName=Ada. Fix: add Plan to the demographics table (regctl: server define-attribute NAME), or stop sending it.",
      "\(sentences)")
    // Without a table every attribute is accepted: nothing to explain but that.
    let open = try HARReader.judge(
      documents: [("capture.har", document)], replay: FieldReplay(definedAttributes: nil))
    var openReplay = try #require(open.replay)
    let accepted = try #require(openReplay.stories(open.watch).first)
    #expect(
      FieldExplanation.sentences(accepted).first?.hasPrefix("Every field the app sent was accepted")
        == true)
  }
}
