import EngagementServer
import Foundation
import InspectorUI
import RegistrationCore
import Session
import Testing

@Suite("the receiver layout")
struct ReceiverViewTests {
  static func body(_ device: String, tags: [String]) -> String {
    #"{"deviceID":"\#(device)","etAppId":"app","platform":"iOS","tags":[\#(tags.map { "\"\($0)\"" }.joined(separator: ","))]}"#
  }

  /// Two devices: an iOS app that kept to the rules, and a client whose User-Agent is not a
  /// shipped SDK's (so held to the documented contract) that retried at once after a 503.
  static func model() throws -> InspectorModel {
    var watch = DeviceWatch()
    let ios = "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0"
    let steps: [(String, Double, [String], Int, String)] = [
      ("GOOD", 0, ["a"], 201, ios), ("GOOD", 61, ["a", "b"], 201, ios),
      ("EAGER", 100, ["x"], 503, "okhttp/4.12"), ("EAGER", 101, ["x"], 201, "okhttp/4.12"),
    ]
    for (device, at, tags, status, userAgent) in steps {
      let text = body(device, tags: tags)
      let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(text.utf8))
      _ = watch.record(
        deviceID: device, payload: payload, body: Array(text.utf8),
        facts: RequestFacts(userAgent: userAgent), at: Instant(at), status: status,
        retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false }))
    }
    var model = InspectorModel(width: 120, height: 40, title: "app ← real apps")
    model.timeStyle = .elapsed
    _ = Inspector.update(
      &model,
      .snapshot(
        SessionSnapshot(
          device: nil, server: nil, now: Instant(110), rate: 1,
          watched: Array(watch.devices.values.sorted { $0.lastSeen > $1.lastSeen }))))
    return model
  }

  @Test("devices with their SDK and findings; the selected one's timeline, rule and countdown")
  func screen() throws {
    var model = try Self.model()
    var text = Inspector.view(model).text
    #expect(
      text.contains("Devices (2)") && text.contains("> EAGER") && text.contains("1 violation"))
    #expect(text.contains("iOS, unknown SDK (documented rules)") && text.contains("receiving"))
    #expect(text.contains("retryTooSoon") && text.contains("R4.1"))
    #expect(text.contains("next allowed in 51 s (R3.2: one a minute)"))
    _ = Inspector.update(&model, .key(.down))
    text = Inspector.view(model).text
    #expect(text.contains("> GOOD") && text.contains("Timeline · GOOD"))
    #expect(text.contains("iOS SDK 10.0.0") && !text.contains("iOS ios"))
    #expect(text.contains("none: this app keeps to the rules so far"))
    #expect(text.contains("+ tags b") && !text.contains("+ + tags"))
  }
}
