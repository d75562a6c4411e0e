import Foundation
import RegistrationCore
import Testing

@Suite("R6 the wire format")
struct PayloadTests {
  @Test("R6.4 the seed 000 example decodes, and encodes again to the same fields and values")
  func seedRoundTrip() throws {
    let original = try Data(contentsOf: fixtureURL("seed000-registration.json"))
    let payload = try WireDecoding.payload(from: original).get()
    #expect(payload.subscriberKey == "contactkey@example.com")
    #expect(payload.etAppId == "\t995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47")
    #expect(payload.attributes == [.init(key: "CODE", value: "FREE99")])
    let reencoded = payload.encodedBody()
    let lhs =
      try JSONSerialization.jsonObject(
        with: WireDecoding.escapingRawControlCharacters(original)) as? NSDictionary
    let rhs = try JSONSerialization.jsonObject(with: reencoded) as? NSDictionary
    #expect(lhs != nil && lhs == rhs)
    #expect(lhs?.count == 20)
  }

  @Test("R6.2 wire names, sorted attributes and tags, optional fields only when they apply")
  func wireShape() throws {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.setAttribute(key: "zeta", value: "1"), at: 1)
    h.edit(.setAttribute(key: "Alpha", value: "2"))
    h.edit(.setAttribute(key: "beta", value: "3"))
    h.edit(.addTag("b"))
    h.edit(.addTag("a"))
    h.advance(to: 61)
    let body = try #require(h.sends.last?.body)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    let keys = Set(json.keys)
    #expect(
      keys == [
        "deviceID", "etAppId", "platform", "platform_Version", "app_Version", "sdk_Version",
        "hwid", "locale", "language", "timeZone", "dST", "push_Enabled", "quietPushEnabled",
        "location_Enabled", "proximity_Enabled", "badge", "registrationId", "attributes", "tags",
      ])
    let attributeKeys = (json["attributes"] as? [[String: String]])?.compactMap { $0["key"] }
    #expect(attributeKeys == ["Alpha", "beta", "zeta"])
    #expect(json["tags"] as? [String] == ["ALL", "IOS", "a", "b"])
    #expect(json["timeZone"] as? String == "0")
    h.edit(.setContactKey("ck"), at: 100)
    h.edit(.setSystem(.deviceToken, "tok"))
    h.advance(to: 160)
    let payload = try #require(h.lastPayload)
    #expect(payload.subscriberKey == "ck")
    #expect(payload.deviceToken == "tok")
  }

  @Test("R6.2 badge is sent on iOS only")
  func badgeOnlyOnIOS() {
    let ios = CoreHarness.launchedAndRegistered()
    #expect(ios.lastPayload?.badge == 0)
    let android = CoreHarness.launchedAndRegistered(
      settings: CoreHarness.settings(platform: .android))
    #expect(android.lastPayload?.badge == nil)
    #expect(android.lastPayload?.platform == "Android")
  }

  @Test("R1.2 deviceID is made once and kept; registrationId follows it")
  func deviceIDKept() {
    let h = CoreHarness.launchedAndRegistered()
    let (relaunched, _) = RegistrationMachine.relaunch(
      settings: h.machine.settings, state: h.machine.state,
      environment: h.machine.state.record.device.environment, now: Instant(99))
    #expect(relaunched.state.record.device.deviceID == CoreHarness.deviceID)
    #expect(h.lastPayload?.registrationId == CoreHarness.deviceID.lowercased())
  }

  @Test("R1.3 nothing from the server's answer is written into the record")
  func oneWayReplication() {
    var h = CoreHarness()
    let before = h.machine.state.record
    h.advance(to: 0)
    #expect(h.machine.state.record == before)
    #expect(h.machine.state.record.contactKey == nil)
  }

  @Test("wire decoding names what is wrong")
  func decodingErrors() {
    let notJSON = WireDecoding.payload(from: Data("{nope".utf8))
    guard case .failure(.notJSON) = notJSON else {
      Issue.record("expected notJSON, got \(notJSON)")
      return
    }
    let wrongType = WireDecoding.payload(from: Data(#"{"push_Enabled": "yes"}"#.utf8))
    guard case .failure(.wrongShape(let detail)) = wrongType else {
      Issue.record("expected wrongShape, got \(wrongType)")
      return
    }
    #expect(detail.contains("push_Enabled"))
    #expect(detail.contains("boolean"))
    // Valid JSON whose number Int cannot hold is out of range, not "not JSON".
    for badge in ["380221221234957558480896", "9223372036854775808", "-1e30"] {
      let huge = WireDecoding.payload(from: Data(#"{"deviceID": "D", "badge": \#(badge)}"#.utf8))
      guard case .failure(.wrongShape(let detail)) = huge else {
        Issue.record("badge \(badge): expected wrongShape, got \(huge)")
        continue
      }
      #expect(detail.hasPrefix("badge: expected a whole number"))
    }
  }

  @Test("body hash is stable and tells bodies apart")
  func bodyHash() {
    #expect(BodyHash.fnv1a64(Array("a".utf8)) == "fnv1a64:af63dc4c8601ec8c")
    #expect(BodyHash.fnv1a64(Array("a".utf8)) != BodyHash.fnv1a64(Array("b".utf8)))
  }
}

@Suite("canonical body")
struct CanonicalBodyTests {
  @Test("the canonical writer and JSONEncoder encode the same JSON value, hostile strings too")
  func sameValueAsJSONEncoder() throws {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.setContactKey("quote\" back\\slash /slash"), at: 1)
    h.edit(.setAttribute(key: "ctl", value: "bell\u{07}esc\u{1B}[31mnul\u{00}tab\tnl\n"))
    h.edit(.setAttribute(key: "uni", value: "Zoë 東京 🚀 \u{2028}"))
    h.edit(.addTag("tag \"quoted\""))
    h.edit(.setSystem(.deviceToken, "tok"))
    let payload = RegistrationPayload(record: h.machine.state.record, settings: h.machine.settings)
    let canonical = payload.encodedBody()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let reference = try encoder.encode(payload)
    let lhs = try JSONSerialization.jsonObject(with: canonical) as? NSDictionary
    let rhs = try JSONSerialization.jsonObject(with: reference) as? NSDictionary
    #expect(lhs != nil && lhs == rhs)
    let decoded = try JSONDecoder().decode(RegistrationPayload.self, from: canonical)
    #expect(decoded == payload)
    // Keys come out sorted, so the bytes are the same for equal payloads.
    let text = String(decoding: canonical, as: UTF8.self)
    #expect(text.hasPrefix("{\"app_Version\":"))
    #expect(!canonical.contains(0x1B) && !canonical.contains(0x00))
  }
}
