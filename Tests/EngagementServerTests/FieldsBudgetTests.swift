import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// `/fields` and `/explain` stay linear in what the device sent (#43): a registration of
/// thousands of undefined attributes names a few of them in each field, the explanation is a
/// readable size, and the API's answer is bounded.
@Suite("the fields' story within a budget")
struct FieldsBudgetTests {
  @Test(
    "8,000 undefined attributes: each reason names 5 and counts the rest; the answer is bounded")
  func thousandsUndefined() async throws {
    let rig = try FieldStoryTests.Rig(defined: ["FirstName"])
    var attributes: [String: String] = ["FirstName": "Ada"]
    for index in 0..<8_000 { attributes["Extra\(index)"] = "v" }
    await rig.send(0, sdkBody(attributes: attributes))
    let story = try await rig.story()
    #expect(story.fields.count >= 8_001)
    let first = try #require(story.fields.first { $0.name == "FirstName" })
    let event = try #require(first.latest)
    #expect(event.outcome == .rejected)
    #expect(event.undefinedAttributes?.count == RegistrationVerdict.named)
    #expect(event.undefinedCount == 8_000)
    #expect(event.why?.contains("and 7,995 more are not in the demographics table") == true)
    let sentences = try await rig.explain()
    #expect(sentences.count <= FieldExplanation.sentencesTold + 10, "\(sentences.count)")
    #expect(sentences.contains { $0.hasPrefix("And ") && $0.contains("more values rejected") })
    #expect(sentences.joined().utf8.count < 64 << 10)
    let json = try JSONEncoder().encode(story)
    #expect(json.count < 2 << 20, "\(json.count) bytes")
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect((object["fields"] as? [Any])?.count == DeviceFieldStories.fieldsSent)
    #expect(object["fieldsOmitted"] as? Int == story.fields.count - DeviceFieldStories.fieldsSent)
  }

  @Test("a field's older events are counted, its newest sent")
  func eventsBounded() async throws {
    let rig = try FieldStoryTests.Rig()
    for index in 0..<30 {
      await rig.send(Double(index) * 100, sdkBody(attributes: ["Tier": "v\(index)"]))
    }
    let json = try JSONEncoder().encode(try await rig.story())
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    let tier = try #require(
      (object["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "Tier" })
    #expect((tier["events"] as? [Any])?.count == DeviceFieldStories.eventsSent)
    #expect(tier["eventsOmitted"] as? Int == 30 - DeviceFieldStories.eventsSent)
  }
}
