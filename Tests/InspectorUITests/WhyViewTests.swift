import EngagementCore
import Foundation
import RegistrationCore
import Testing

@testable import InspectorUI

/// The receiver's Why view (`W`, #30): it asks the receiver for the chosen device's field
/// stories, and shows why each field did or did not arrive in the body's place.
@Suite("the receiver's Why view")
struct WhyViewTests {
  static func stories(_ device: String) throws -> DeviceFieldStories {
    let rejected = try JSONDecoder().decode(
      RegistrationPayload.self,
      from: Data(
        #"{"deviceID":"\#(device)","etAppId":"app","platform":"iOS","attributes":[{"key":"FirstName","value":"Bob"},{"key":"Plan","value":"pro"}]}"#
          .utf8))
    var accepted = rejected
    accepted.attributes = [.init(key: "FirstName", value: "Ada")]
    let registrations = [
      ServerRegistration(
        id: 1, receivedAt: Instant(0), processAt: Instant(0), status: .processed, payload: accepted),
      ServerRegistration(
        id: 2, receivedAt: Instant(100), processAt: Instant(100), status: .rejected,
        reason: #"attribute "Plan" not defined in the demographics table"#, payload: rejected),
    ]
    let held = ServerDevice(
      deviceID: device, token: nil, contactKey: "c", platform: "iOS", active: true,
      inactiveReason: nil, pushEnabled: true, attributes: ["FirstName": "Ada"], tags: [],
      lastRegistrationID: 1, lastRegistrationAt: Instant(0))
    return DeviceFieldStories.build(
      deviceID: device, registrations: registrations,
      facts: FieldFacts(
        device: held, otherDevices: [], orphaned: [], definedAttributes: ["FirstName"],
        profile: .ios, nextSend: nil))
  }

  @Test("W asks for the chosen device's fields, shows why, and asks again only when it moves")
  func toggles() throws {
    var watch = DeviceWatch()
    try ReceiverViewTests.register(&watch, "PHONE", tags: ["ALL"], at: 1)
    var model = receiverModel(watch, now: 10)
    let asked = Inspector.update(&model, .key(.character("W")))
    #expect(asked == [.loadFields(deviceID: "PHONE")])
    #expect(Inspector.view(model).text.contains("asking the server for the device's fields"))
    _ = Inspector.update(&model, .fields(try Self.stories("PHONE"), deviceID: "PHONE"))
    let text = Inspector.view(model).text
    #expect(text.contains("Why: each field's story"), "\(text)")
    #expect(text.contains("FirstName=Bob") && text.contains("Plan is not in the"), "\(text)")
    // The same device, nothing new: a snapshot asks nothing more.
    let again = Inspector.update(
      &model,
      .snapshot(
        .receiver(
          .init(
            server: nil, watched: Array(watch.devices.values), notice: nil, now: Instant(11)))))
    #expect(again.isEmpty)
    // W again: back to the last body.
    #expect(Inspector.update(&model, .key(.character("W"))).isEmpty)
    #expect(Inspector.view(model).text.contains("Last body"))
    // An answer for a device no longer chosen is dropped.
    _ = Inspector.update(&model, .fields(try Self.stories("OTHER"), deviceID: "OTHER"))
    #expect(model.receiver.fields?.deviceID != "OTHER")
  }
}
