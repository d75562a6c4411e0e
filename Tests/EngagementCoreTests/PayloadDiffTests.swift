import Foundation
import RegistrationCore
import Testing

@testable import EngagementCore

/// The timeline's changes between two registrations (R1.4): the fields are read from the
/// payload itself, and must be what its JSON body says, value for value (a flag as the body
/// writes it, true or false: the JSON reading showed Linux's 1 or 0).
@Suite("what changed between two registrations")
struct PayloadDiffTests {
  /// The fields as the body's JSON gives them (the reading `PayloadDiff` used before).
  static func fieldsByJSON(_ payload: RegistrationPayload) -> [String: PayloadDiff.Field] {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(payload.encodedBytes()))
        as? [String: Any]
    else { return [:] }
    var fields: [String: PayloadDiff.Field] = [:]
    for (key, value) in object {
      switch value {
      case let items as [[String: Any]]:
        fields[key] = .list(items.map { "\($0["key"] ?? "")=\($0["value"] ?? "")" })
      case let items as [Any]:
        fields[key] = .list(items.map { "\($0)" })
      case is NSNull:
        continue
      default:
        // The body says true or false; Foundation on Linux hands a flag back as 1 or 0.
        let flags = [
          "dST", "push_Enabled", "quietPushEnabled", "location_Enabled", "proximity_Enabled",
        ]
        let shown = "\(value)"
        fields[key] =
          flags.contains(key)
          ? .text(shown == "1" || shown == "true" ? "true" : "false") : .text(shown)
      }
    }
    return fields
  }

  static var payloads: [RegistrationPayload] {
    var full = RegistrationPayload()
    full.deviceID = "D-1"
    full.deviceToken = "tok"
    full.subscriberKey = "ada@example.com"
    full.etAppId = "app"
    full.platform = "Android"
    full.platformVersion = "14"
    full.appVersion = "1.0"
    full.sdkVersion = "10.0.0"
    full.hwid = "Google Pixel 8"
    full.locale = "en_US"
    full.language = "en"
    full.timeZone = "-3600"
    full.registrationId = "r"
    full.uuid = "u"
    full.signedString = "s"
    full.registrationDateUtc = "2026-11-22T10:00:00.000Z"
    full.dst = true
    full.pushEnabled = false
    full.quietPushEnabled = true
    full.locationEnabled = false
    full.proximityEnabled = true
    full.badge = 7
    full.tags = ["ALL", "sports", "é \"q\""]
    full.attributes = [.init(key: "Tier", value: "gold"), .init(key: "Name", value: "A=B \\ ü")]
    var empty = RegistrationPayload()
    empty.tags = []
    empty.attributes = []
    var negative = full
    negative.badge = -2
    negative.dst = false
    return [full, RegistrationPayload(), empty, negative]
  }

  @Test("each field as the body's JSON has it", arguments: 0..<4)
  func sameAsJSON(_ index: Int) {
    let payload = Self.payloads[index]
    var fields: [String: PayloadDiff.Field] = [:]
    for (key, field) in zip(PayloadDiff.wireKeys, PayloadDiff.orderedFields(payload)) {
      fields[key] = field
    }
    #expect(fields == Self.fieldsByJSON(payload))
  }

  @Test("the keys are in the order the changes are listed: sorted")
  func keysSorted() {
    #expect(PayloadDiff.wireKeys == PayloadDiff.wireKeys.sorted())
    #expect(Set(PayloadDiff.wireKeys).count == 24)
  }

  @Test("R1.4: a tag added, an attribute changed, a flag turned, the SDK upgraded")
  func changes() {
    let before = Self.payloads[0]
    var after = before
    after.tags = ["ALL", "sports", "é \"q\"", "news"]
    after.attributes = [
      .init(key: "Tier", value: "platinum"), .init(key: "Name", value: "A=B \\ ü"),
    ]
    after.pushEnabled = true
    after.sdkVersion = "10.1.0"
    #expect(
      PayloadDiff.changes(from: before, to: after) == [
        "+ attributes Tier=platinum", "- attributes Tier=gold", "push_Enabled: false -> true",
        "SDK upgraded 10.0.0 -> 10.1.0", "+ tags news",
      ])
    #expect(PayloadDiff.changes(from: nil, to: after) == ["first registration"])
  }
}
