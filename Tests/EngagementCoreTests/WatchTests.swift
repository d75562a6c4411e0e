import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// Judges one device's registrations the way the watch does: each step is (seconds, body,
/// status, Retry-After header). The User-Agent picks the SDK's rules.
struct JudgeRig {
  var watch = DeviceWatch(makeToken: seededTokens(1))
  var userAgent: String?
  var defined: Set<String>?
  var otherDevices: (String) -> Bool = { _ in false }
  /// What a Retry-After date is measured from.
  static let now = Date(timeIntervalSince1970: 1_445_412_400)  // 2015-10-21 07:26:40 GMT

  init(userAgent: String? = nil, defined: Set<String>? = nil) {
    self.userAgent = userAgent
    self.defined = defined
  }

  /// The findings of the last registration sent.
  @discardableResult
  mutating func send(
    _ at: Double, _ body: String, _ status: Int?, retryAfter: String? = nil
  ) throws -> [Finding] {
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
    _ = watch.record(
      ReceivedRegistration(
        deviceID: payload.deviceID ?? "", payload: payload, body: Array(body.utf8),
        facts: RequestFacts(userAgent: userAgent), at: Instant(at), status: status,
        retryAfter: retryAfter.flatMap { RetryAfter.parse($0, now: Self.now) },
        server: ServerFacts(definedAttributes: defined, contactStillHasOtherDevices: otherDevices)))
    return try #require(watch.devices[payload.deviceID ?? ""]?.registrations.last).findings
  }

  /// Every finding of the device so far.
  var all: [Finding] { watch.devices.values.flatMap { $0.registrations.flatMap(\.findings) } }
  var violations: [Finding] { all.filter { $0.severity == .violation } }
}

@Suite("judging a real app's registrations (documented contract: no shipped SDK's User-Agent)")
struct RegistrationJudgeTests {
  /// Records `steps` for one device with no User-Agent; the last one's findings by code.
  static func judged(
    _ steps: [(Double, String, Int, String?)], defined: Set<String>? = nil
  ) throws -> [FindingCode] {
    var rig = JudgeRig(defined: defined)
    var last: [Finding] = []
    for (at, body, status, retryAfter) in steps {
      last = try rig.send(at, body, status, retryAfter: retryAfter)
    }
    return last.map(\.code)
  }

  static let ios = sdkBody(platform: "iOS")

  @Test("a well-behaved app: one registration a minute or more apart, each different: nothing")
  func wellBehaved() throws {
    #expect(
      try Self.judged([
        (0, sdkBody(), 201, nil), (61, sdkBody(tags: ["ALL", "a"]), 201, nil),
        (200, sdkBody(tags: ["ALL", "a", "b"]), 201, nil),
      ]).isEmpty)
  }

  @Test("R3.2 two registrations under 60 s apart: throttleViolated (58 s yes, 60 s no)")
  func throttle() throws {
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (10, sdkBody(tags: ["x"]), 201, nil)])
        == [.throttleViolated])
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (58, sdkBody(tags: ["x"]), 201, nil)])
        == [.throttleViolated])
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (60, sdkBody(tags: ["x"]), 201, nil)]).isEmpty)
  }

  @Test("R4.1 after a 503 the ladder: at once is too soon; 60, 120, 240 s keep to it")
  func ladder() throws {
    let body = Self.ios
    #expect(try Self.judged([(0, body, 503, nil), (1, body, 503, nil)]) == [.retryTooSoon])
    #expect(try Self.judged([(0, body, 503, nil), (60, body, 503, nil)]).isEmpty)
    #expect(
      try Self.judged([(0, body, 503, nil), (60, body, 503, nil), (180, body, 201, nil)]).isEmpty)
    // A fixed 60 s retry: too soon at the second failure, and the wait did not grow.
    #expect(
      try Self.judged([(0, body, 503, nil), (60, body, 503, nil), (120, body, 201, nil)])
        == [.retryLadderBroken])
    #expect(
      SDKProfile.documented.earliestNext(after: observed([503, 503, 503]))?.at == Instant(240 + 2))
  }

  /// What the server saw of sends one second apart with these answers.
  func observed(_ statuses: [Int]) -> ObservedSends {
    var observed = ObservedSends()
    for (index, status) in statuses.enumerated() {
      observed.observe(
        at: Instant(Double(index)),
        RetryPolicy.isSuccess(status: status) ? .success : .failure(retryAfter: nil))
    }
    return observed
  }

  @Test("a delayed alarm: a long wait followed by a normal one draws nothing (waits are minimums)")
  func delayedAlarm() throws {
    let body = Self.ios
    #expect(
      try Self.judged([
        (0, body, 503, nil), (500, body, 503, nil), (620, body, 503, nil), (860, body, 201, nil),
      ]).isEmpty)
    var rig = JudgeRig(userAgent: androidAgent)
    for (at, status) in [(0.0, 503), (900, 503), (960, 503), (1020, 201)] {
      try rig.send(at, sdkBody(), status)
    }
    #expect(rig.all.isEmpty)
  }

  @Test("R4.2 Retry-After 120 s ignored by a retry after 60 s; an HTTP date counts too")
  func retryAfter() throws {
    let body = Self.ios
    #expect(
      try Self.judged([(0, body, 429, "120"), (60, body, 201, nil)]) == [.retryAfterIgnored])
    #expect(try Self.judged([(0, body, 429, "120"), (121, body, 201, nil)]).isEmpty)
    // 07:28:40 GMT is 120 s after the answer.
    #expect(
      try Self.judged([(0, body, 429, "Wed, 21 Oct 2015 07:28:40 GMT"), (60, body, 201, nil)])
        == [.retryAfterIgnored])
  }

  @Test("R6.3, R2.5, S5, R2.4: what a body carries, each with its severity")
  func content() throws {
    let noPlatform = sdkBody().replacingOccurrences(of: #""platform":"Android","#, with: "")
    #expect(try Self.judged([(0, noPlatform, 201, nil)]) == [.missingRequired])
    #expect(
      try Self.judged([(0, sdkBody(attributes: ["DeviceId": "x"]), 201, nil)])
        == [.reservedAttribute])
    #expect(
      try Self.judged([(0, sdkBody(attributes: ["Plan": "gold"]), 201, nil)], defined: ["Tier"])
        == [.undefinedAttribute])
    #expect(try Self.judged([(0, sdkBody(key: "test"), 201, nil)]) == [.genericContactKey])
    var missing = JudgeRig()
    var generic = JudgeRig()
    let severities = try [
      missing.send(0, noPlatform, 201), generic.send(0, sdkBody(key: "test"), 201),
    ]
    .flatMap { $0.map(\.severity) }
    #expect(severities == [.violation, .warning])
  }

  @Test("S5 attribute names are matched as processing matches them: case does not matter")
  func attributeCase() throws {
    #expect(
      try Self.judged([(0, sdkBody(attributes: ["tier": "gold"]), 201, nil)], defined: ["Tier"])
        .isEmpty)
    var core = EngagementServerCore(
      settings: ServerSettings(appID: appID, accessToken: "t", definedAttributes: ["Tier"]))
    let payload = try JSONDecoder().decode(
      RegistrationPayload.self, from: Data(sdkBody(attributes: ["tier": "gold"]).utf8))
    _ = core.receive(.valid(payload, body: []), now: Instant(0))
    _ = core.processDue(now: Instant(10_000))
    #expect(core.stats().rejected == 0)
  }

  @Test("R8.2 anonymous then known, R8.3 A then B: contactKeyChanged with its orphan (warning)")
  func contactKeys() throws {
    #expect(
      try Self.judged([(0, sdkBody(), 201, nil), (61, sdkBody(key: "alice@x"), 201, nil)])
        == [.contactKeyChanged])
    var rig = JudgeRig()
    try rig.send(0, sdkBody(key: "alice@x"), 201)
    let finding = try #require(try rig.send(61, sdkBody(key: "bob@x"), 201).first)
    #expect(finding.rule == "R8.3" && finding.message.contains("orphaned"))
    #expect(finding.severity == .warning)
    #expect(
      rig.watch.devices["WATCH-1"]?.registrations.last?.changes
        == ["subscriberKey: alice@x -> bob@x"])
  }

  @Test("R3.4 the same body again (a new uuid and time do not count): possibly a lost answer")
  func unchanged() throws {
    var rig = JudgeRig()
    try rig.send(0, sdkBody(uuid: "a"), 201)
    let first = try rig.send(61, sdkBody(uuid: "b"), 201)
    #expect(first.map(\.code) == [.unchangedResent])
    #expect(first.first?.severity == .note && first.first?.cause == .lostAnswer)
    // A lost answer explains one resend, not a run: the same body hammered.
    let again = try rig.send(122, sdkBody(uuid: "c"), 201)
    #expect(again.map(\.code) == [.unchangedResent] && again.first?.severity == .violation)
  }

  @Test("the SDK is read from the User-Agent, as both shipped SDKs write it")
  func identity() {
    let ios = ClientIdentity.read(
      userAgent:
        "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0",
      sdkVersionHeader: "10.0.0", bodyPlatform: "iOS")
    #expect(ios.sdk == .ios && ios.platform == "iOS" && ios.systemVersion == "17.5")
    #expect(ios.bundleID == "com.example.app" && ios.appVersion == "1.0.0")
    let android = ClientIdentity.read(
      userAgent: "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/2.1",
      sdkVersionHeader: nil, bodyPlatform: "Android")
    #expect(android.sdk == .android && android.sdkVersion == "10.0.0")
    #expect(android.appVersion == "2.1")
    let curl = ClientIdentity.read(
      userAgent: "curl/8.0", sdkVersionHeader: nil, bodyPlatform: "iOS")
    #expect(curl.sdk == .unknown && curl.platform == "iOS")
    // Every major read (8.x to 10.0) is named as it is; 11.x, not read yet, says how it is judged.
    for (version, suffix) in [
      ("8.2.1", ""), ("9.0.0", ""), ("11.0.0", " (judged as 10.x: 11.x not read yet)"),
    ] {
      let identity = ClientIdentity.read(
        userAgent:
          "MarketingCloudSdk/\(version) (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
        sdkVersionHeader: nil, bodyPlatform: "Android")
      #expect(identity.sdkName == "Android SDK \(version)\(suffix)")
    }
  }

  @Test("a User-Agent version no profile reads is judged by the newest profile, and says so")
  func versionNotRead() {
    for version in ["-9.0.0", "8.-1.0", "8.+2.+1", "10.00000000000000000001.0", "7.5.0"] {
      let identity = ClientIdentity.read(
        userAgent:
          "MarketingCloudSdk/\(version) (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
        sdkVersionHeader: nil, bodyPlatform: "Android")
      let said = "(version \(version) not read: judged as 10.0.0)"
      #expect(identity.profile == SDKProfile.android, "\(version)")
      #expect(identity.profileName == "android@10.0.0", "\(version)")
      #expect(identity.sdkName == "Android SDK \(version) \(said)")
      #expect(identity.judgedBy == "judged by the android@10.0.0 profile \(said)")
    }
    // A version read is named as it is, with nothing more said.
    let read = ClientIdentity.read(
      userAgent: "MarketingCloudSdk/8.2.1 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
      sdkVersionHeader: nil, bodyPlatform: "Android")
    #expect(read.profileName == "android@8.2.1" && !read.judgedBy.contains("not read"))
  }

  @Test(
    "tokens come from the source the watch is given: a new device draws one, a known one keeps it")
  func tokensFromItsSource() throws {
    var watch = DeviceWatch(makeToken: seededTokens(7))
    let server = ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })
    func send(_ device: String, at: Double) throws -> String {
      let body = sdkBody(device: device)
      let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
      return watch.record(
        ReceivedRegistration(
          deviceID: device, payload: payload, body: Array(body.utf8), facts: RequestFacts(),
          at: Instant(at), status: 201, server: server))
    }
    #expect(try send("A", at: 0) == "rs-d70d3259e4e1cb631c663cf4d73c4c04")
    #expect(try send("B", at: 1) == "rs-022ab1ba804098e6cb293e6770eb3a95")
    #expect(try send("A", at: 120) == "rs-d70d3259e4e1cb631c663cf4d73c4c04")
  }

  @Test("the watch is bounded: 50 registrations a device, bodies for the newest 5, 8 KB each")
  func bounded() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    let big = sdkBody(attributes: ["Note": String(repeating: "x", count: 20_000)])
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(big.utf8))
    for index in 0..<60 {
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "WATCH-1", payload: payload, body: Array(big.utf8), facts: RequestFacts(),
          at: Instant(Double(index) * 61), status: 201, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
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
