import Clocks
import EngagementHTTP
import Foundation
import RegistrationCore
import RegistrationEngine
import RegistrationHTTP
import TestSupport
import Testing

@testable import EngagementServer

/// A body as both shipped SDKs send it (SDK-FACTS: the fields, `uuid`, `registrationDateUtc`).
func sdkBody(
  device: String = "WATCH-1", platform: String = "Android", app: String = appID,
  key: String? = nil,
  tags: [String] = ["ALL"], attributes: [String: String] = [:], uuid: String = UUID().uuidString
) -> String {
  let attributeList = attributes.sorted { $0.key < $1.key }
    .map { #"{"key":"\#($0.key)","value":"\#($0.value)"}"# }.joined(separator: ",")
  let keyField = key.map { #""subscriberKey":"\#($0)","# } ?? ""
  return
    #"{"app_Version":"1.0","attributes":[\#(attributeList)],"dST":false,"deviceID":"\#(device)","etAppId":"\#(app)","hwid":"Google Pixel 8","locale":"en_US","location_Enabled":false,"platform":"\#(platform)","platform_Version":"14","proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,"registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","signedString":null,\#(keyField)"tags":[\#(tags.map { "\"\($0)\"" }.joined(separator: ","))],"timeZone":"0","uuid":"\#(uuid)"}"#
}

@Suite("judging a real app's registrations")
struct RegistrationJudgeTests {
  /// Records `bodies` (seconds, body, status, Retry-After) for one device; the last one's
  /// findings by code.
  static func judged(
    _ steps: [(Double, String, Int, Double?)], defined: Set<String>? = nil
  ) throws -> [String] {
    var watch = DeviceWatch()
    for (at, body, status, retryAfter) in steps {
      let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
      _ = watch.record(
        deviceID: payload.deviceID ?? "", payload: payload, body: Array(body.utf8),
        facts: RequestFacts(), at: Instant(at), status: status, retryAfter: retryAfter,
        definedAttributes: defined, contactStillHasOtherDevices: { _ in false })
    }
    let device = try #require(watch.devices.values.first)
    return try #require(device.registrations.last).findings.map(\.code)
  }

  @Test("a well-behaved app: one registration a minute or more apart, each different: nothing")
  func wellBehaved() throws {
    #expect(
      try Self.judged([
        (0, sdkBody(), 201, nil), (61, sdkBody(tags: ["ALL", "a"]), 201, nil),
        (200, sdkBody(tags: ["ALL", "a", "b"]), 201, nil),
      ]).isEmpty)
  }

  @Test("R3.2 two registrations under 60 s apart: throttleViolated (59 s yes, 60 s no)")
  func throttle() throws {
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (10, sdkBody(tags: ["x"]), 201, nil)])
        == ["throttleViolated"])
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (58, sdkBody(tags: ["x"]), 201, nil)])
        == ["throttleViolated"])
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (60, sdkBody(tags: ["x"]), 201, nil)]).isEmpty)
  }

  @Test("R4.1 after a 503 the ladder: at once is too soon; 60, 120, 240 s keep to it")
  func ladder() throws {
    let body = sdkBody()
    #expect(try Self.judged([(0, body, 503, nil), (1, body, 503, nil)]) == ["retryTooSoon"])
    #expect(try Self.judged([(0, body, 503, nil), (60, body, 503, nil)]).isEmpty)
    #expect(
      try Self.judged([(0, body, 503, nil), (60, body, 503, nil), (180, body, 201, nil)]).isEmpty)
    // A fixed 60 s retry: too soon at the second failure, and the wait did not grow.
    #expect(
      try Self.judged([(0, body, 503, nil), (60, body, 503, nil), (120, body, 201, nil)])
        == ["retryTooSoon", "retryLadderBroken"])
    #expect(RegistrationJudge.ladder(afterFailures: 1) == 60)
    #expect(RegistrationJudge.ladder(afterFailures: 3) == 240)
    #expect(RegistrationJudge.ladder(afterFailures: 40) == 86_400)
  }

  @Test("R4.2 Retry-After 120 s ignored by a retry after 60 s")
  func retryAfter() throws {
    let body = sdkBody()
    #expect(try Self.judged([(0, body, 429, 120), (60, body, 201, nil)]) == ["retryAfterIgnored"])
    #expect(try Self.judged([(0, body, 429, 120), (121, body, 201, nil)]).isEmpty)
  }

  @Test("R6.3, R2.5, S5, R2.4: what a body carries")
  func content() throws {
    let noPlatform = sdkBody().replacingOccurrences(of: #""platform":"Android","#, with: "")
    #expect(try Self.judged([(0, noPlatform, 201, nil)]) == ["missingRequired"])
    #expect(
      try Self.judged([(0, sdkBody(attributes: ["DeviceId": "x"]), 201, nil)])
        == ["reservedAttribute"])
    #expect(
      try Self.judged([(0, sdkBody(attributes: ["Plan": "gold"]), 201, nil)], defined: ["Tier"])
        == ["undefinedAttribute"])
    #expect(try Self.judged([(0, sdkBody(key: "test"), 201, nil)]) == ["genericContactKey"])
  }

  @Test("R8.2 anonymous then known, R8.3 A then B: contactKeyChanged with its orphan")
  func contactKeys() throws {
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (61, sdkBody(key: "alice@x"), 201, nil)])
        == ["contactKeyChanged"])
    var watch = DeviceWatch()
    for (at, key) in [(0.0, "alice@x"), (61, "bob@x")] {
      let body = sdkBody(key: key)
      let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
      _ = watch.record(
        deviceID: "WATCH-1", payload: payload, body: Array(body.utf8), facts: RequestFacts(),
        at: Instant(at), status: 201, retryAfter: nil, definedAttributes: nil,
        contactStillHasOtherDevices: { _ in false })
    }
    let finding = try #require(watch.devices["WATCH-1"]?.registrations.last?.findings.first)
    #expect(finding.rule == "R8.3" && finding.message.contains("orphaned"))
    #expect(
      watch.devices["WATCH-1"]?.registrations.last?.changes == ["subscriberKey: alice@x -> bob@x"])
  }

  @Test("R3.4 the same body again (a new uuid and time do not count): unchangedResent")
  func unchanged() throws {
    #expect(
      try Self.judged([(0, sdkBody(uuid: "a"), 201, nil), (61, sdkBody(uuid: "b"), 201, nil)])
        == ["unchangedResent"])
  }

  @Test("the SDK is read from the User-Agent, as both shipped SDKs write it")
  func identity() {
    let ios = ClientIdentity.read(
      userAgent:
        "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0",
      sdkVersionHeader: "10.0.0", bodyPlatform: "iOS")
    #expect(ios.sdk == "ios" && ios.platform == "iOS" && ios.systemVersion == "17.5")
    #expect(ios.bundleID == "com.example.app" && ios.appVersion == "1.0.0")
    let android = ClientIdentity.read(
      userAgent: "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/2.1",
      sdkVersionHeader: nil, bodyPlatform: "Android")
    #expect(android.sdk == "android" && android.sdkVersion == "10.0.0")
    #expect(android.appVersion == "2.1")
    let curl = ClientIdentity.read(
      userAgent: "curl/8.0", sdkVersionHeader: nil, bodyPlatform: "iOS")
    #expect(curl.sdk == "unknown" && curl.platform == "iOS")
  }

  @Test("the watch is bounded: 50 registrations a device, bodies for the newest 5, 8 KB each")
  func bounded() throws {
    var watch = DeviceWatch()
    let big = sdkBody(attributes: ["Note": String(repeating: "x", count: 20_000)])
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(big.utf8))
    for index in 0..<60 {
      _ = watch.record(
        deviceID: "WATCH-1", payload: payload, body: Array(big.utf8), facts: RequestFacts(),
        at: Instant(Double(index) * 61), status: 201, retryAfter: nil, definedAttributes: nil,
        contactStillHasOtherDevices: { _ in false })
    }
    let device = try #require(watch.devices["WATCH-1"])
    #expect(device.registrations.count == DeviceWatch.timelineLimit)
    #expect(device.registrationCount == 60)
    #expect(device.registrations.filter { !$0.body.isEmpty }.count == DeviceWatch.bodiesKept)
    let kept = try #require(device.registrations.last?.body)
    #expect(kept.utf8.count < DeviceWatch.bodyLimit + 100)
    #expect(kept.hasSuffix("(\(big.utf8.count) bytes; the first 8192 kept)"))
  }
}
