import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// Each SDK is judged by its own rules (SDK-FACTS "Throttle and retry"): every sequence a
/// correct iOS or Android 10 app sends draws no violation; the broken ones each draw one.
@Suite("the judge, for the SDK the app runs")
struct JudgeBySDKTests {
  static func ios(_ tags: [String]) -> String { sdkBody(platform: "iOS", tags: tags) }
  static func android(_ tags: [String]) -> String { sdkBody(platform: "Android", tags: tags) }

  // MARK: Android

  @Test("android: a pending change sent on going to the background, 20 s after a send: a note")
  func androidBackground() throws {
    var rig = JudgeRig(userAgent: androidAgent)
    try rig.send(0, Self.android(["ALL"]), 201)
    let findings = try rig.send(20, Self.android(["ALL", "sports"]), 201)
    #expect(findings.map(\.code) == [.backgroundSend])
    #expect(findings.first?.severity == .note && findings.first?.cause == .background)
    #expect(findings.first?.message.contains("background") == true)
    #expect(rig.violations.isEmpty)
  }

  @Test("android: an identical body 20 s later is no background send; changes in a row each may be")
  func androidBackgroundBroken() throws {
    var identical = JudgeRig(userAgent: androidAgent)
    try identical.send(0, Self.android(["ALL"]), 201)
    let codes = try identical.send(20, Self.android(["ALL"]), 201)
    #expect(codes.filter { $0.severity == .violation }.map(\.code).contains(.throttleViolated))
    var run = JudgeRig(userAgent: androidAgent)
    try run.send(0, Self.android(["ALL"]), 201)
    try run.send(20, Self.android(["ALL", "a"]), 201)
    let third = try run.send(40, Self.android(["ALL", "a", "b"]), 201)
    #expect(third.map(\.code) == [.backgroundSend] && third.first?.severity == .note)
  }

  @Test("android: flat 60 s retries (reading 2) and doubling ones (reading 1) both draw nothing")
  func androidFlatRetries() throws {
    for times in [[0.0, 60, 120, 180, 240], [0, 60, 180, 420, 900]] {
      var rig = JudgeRig(userAgent: androidAgent)
      for (index, at) in times.enumerated() {
        try rig.send(at, Self.android(["ALL"]), index == times.count - 1 ? 201 : 503)
      }
      #expect(rig.all.isEmpty, "\(times): \(rig.all)")
    }
  }

  @Test("android broken: retries 5 s apart are a violation (a background send explains one)")
  func androidHammering() throws {
    var rig = JudgeRig(userAgent: androidAgent)
    try rig.send(0, Self.android(["ALL"]), 503)
    let second = try rig.send(5, Self.android(["ALL"]), 503)
    #expect(second.map(\.code) == [.backgroundSend])
    let third = try rig.send(10, Self.android(["ALL"]), 503)
    #expect(third.map(\.code) == [.retryTooSoon] && third.first?.severity == .violation)
  }

  @Test("android: an edit during a backoff goes out 60 s after the last attempt: nothing")
  func androidEditDuringBackoff() throws {
    var rig = JudgeRig(userAgent: androidAgent)
    try rig.send(0, Self.android(["ALL"]), 503)
    try rig.send(60, Self.android(["ALL"]), 503)
    try rig.send(180, Self.android(["ALL"]), 503)
    try rig.send(241, Self.android(["ALL", "edited"]), 201)
    #expect(rig.all.isEmpty, "\(rig.all)")
  }

  @Test("android: Retry-After is a gate a background send keeps; a date is ignored")
  func androidRetryAfter() throws {
    var kept = JudgeRig(userAgent: androidAgent)
    try kept.send(0, Self.android(["ALL"]), 429, retryAfter: "300")
    let early = try kept.send(90, Self.android(["ALL", "x"]), 201)
    #expect(early.map(\.code) == [.retryAfterIgnored])
    var date = JudgeRig(userAgent: androidAgent)
    try date.send(0, Self.android(["ALL"]), 429, retryAfter: "Wed, 21 Oct 2015 07:36:40 GMT")
    #expect(try date.send(60, Self.android(["ALL"]), 201).isEmpty)
  }

  // MARK: iOS

  @Test("ios: a relaunch sends a changed record about 1 s after launch: a note naming it")
  func iosRelaunch() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL", "IOS", "iPhone"]), 201)
    let findings = try rig.send(5, Self.ios(["ALL", "IOS", "iPhone", "a"]), 201)
    #expect(findings.map(\.code) == [.relaunchSend] && findings.first?.cause == .relaunch)
    #expect(findings.first?.message.contains("relaunch") == true)
    // The interval started again at the relaunch: 60 s after it is on time.
    #expect(try rig.send(66, Self.ios(["ALL", "IOS", "iPhone", "b"]), 201).isEmpty)
    #expect(rig.violations.isEmpty)
  }

  @Test("ios: a relaunch during a backoff retries the failed record at once, then 120 s later")
  func iosRelaunchDuringBackoff() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL"]), 503)
    try rig.send(120, Self.ios(["ALL"]), 503)
    let relaunched = try rig.send(130, Self.ios(["ALL"]), 503)
    #expect(relaunched.map(\.severity) == [.note])
    #expect(try rig.send(250, Self.ios(["ALL"]), 201).isEmpty)
  }

  @Test("ios broken: retries seconds apart twice in a row are no relaunch: crash-looping")
  func iosCrashLoop() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL"]), 503)
    try rig.send(2, Self.ios(["ALL"]), 503)
    let third = try rig.send(4, Self.ios(["ALL"]), 503)
    #expect(third.map(\.severity) == [.violation])
    #expect(third.first?.message.contains("crash-looping") == true)
  }

  @Test("a run of early sends 2 s apart, each with a change: one rule for the whole run, per SDK")
  func earlyRuns() throws {
    // Android: every one may follow the app going to the background: each a note naming it.
    var android = JudgeRig(userAgent: androidAgent)
    try android.send(0, Self.android(["ALL"]), 201)
    var androidRun: [[Finding.Severity]] = []
    for (index, at) in [2.0, 4, 6, 8].enumerated() {
      androidRun.append(
        try android.send(at, Self.android(["ALL", "t\(index)"]), 201).map(\.severity))
    }
    #expect(androidRun == [[.note], [.note], [.note], [.note]])
    // A send with no change has no background cause.
    let unchanged = try android.send(10, Self.android(["ALL", "t3"]), 201)
    #expect(unchanged.contains { $0.severity == .violation && $0.code == .throttleViolated })
    // iOS: a relaunch explains the first; the rest are a crash loop, and say so.
    var ios = JudgeRig(userAgent: iosAgent)
    try ios.send(0, Self.ios(["ALL", "IOS", "iPhone"]), 201)
    var iosRun: [[Finding]] = []
    for (index, at) in [2.0, 4, 6, 8].enumerated() {
      iosRun.append(try ios.send(at, Self.ios(["ALL", "IOS", "iPhone", "t\(index)"]), 201))
    }
    #expect(
      iosRun.map { $0.map(\.severity) } == [[.note], [.violation], [.violation], [.violation]])
    #expect(iosRun.dropFirst().allSatisfy { $0.first?.message.contains("crash-looping") == true })
    // A send on time ends the run: the next early one is a relaunch again.
    #expect(try ios.send(70, Self.ios(["ALL", "IOS", "iPhone", "late"]), 201).isEmpty)
    #expect(
      try ios.send(72, Self.ios(["ALL", "IOS", "iPhone", "again"]), 201).map(\.severity) == [.note])
  }

  @Test("ios: the interval doubles from 120 s after the first failure; 60 s is too soon")
  func iosInterval() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    for (at, status) in [(0.0, 503), (120, 503), (360, 503), (840, 201), (900, 201)] {
      try rig.send(at, Self.ios(["ALL", "\(at)"]), status)
    }
    #expect(rig.all.isEmpty, "\(rig.all)")
  }

  @Test("ios: Retry-After 300 is polled at doubled intervals and sent at 360 s: nothing")
  func iosRetryAfterPolling() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL"]), 429, retryAfter: "300")
    #expect(try rig.send(360, Self.ios(["ALL"]), 201).isEmpty)
    // The date form and 0 are ignored by iOS: its own 120 s interval is what holds.
    for header in ["Wed, 21 Oct 2015 07:36:40 GMT", "0"] {
      var ignored = JudgeRig(userAgent: iosAgent)
      try ignored.send(0, Self.ios(["ALL"]), 429, retryAfter: header)
      #expect(try ignored.send(120, Self.ios(["ALL"]), 201).isEmpty, "\(header)")
    }
  }

  @Test("ios broken: a send before the stored Retry-After date is a violation, relaunch or not")
  func iosRetryAfterIgnored() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL"]), 429, retryAfter: "300")
    let findings = try rig.send(130, Self.ios(["ALL", "changed"]), 201)
    #expect(findings.map(\.code) == [.retryAfterIgnored] && findings.first?.severity == .violation)
  }

  @Test("an iPad: its User-Agent says iPadOS; it is iOS, judged as iOS, and not malformed")
  func iPad() throws {
    let identity = ClientIdentity.read(
      userAgent: ipadAgent, sdkVersionHeader: "10.0.0", bodyPlatform: "iPadOS")
    #expect(identity.sdk == .ios && identity.platform == "iPadOS")
    var rig = JudgeRig(userAgent: ipadAgent)
    let body = sdkBody(platform: "iPadOS", tags: ["ALL", "IOS", "iPad"])
    #expect(try rig.send(0, body, 201).isEmpty)
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
    #expect(ProcessingRules.malformation(payload) == nil)
    var core = EngagementServerCore(settings: ServerSettings(appID: appID, accessToken: "t"))
    _ = core.receive(.valid(payload, body: []), now: Instant(0))
    _ = core.processDue(now: Instant(10_000))
    #expect(core.stats().rejected == 0 && core.devices["WATCH-1"]?.active == true)
  }

  // MARK: Both

  @Test("a rotated signedString is a change: sent again, it is not unchangedResent")
  func rotatedSignedString() throws {
    for agent in [iosAgent, androidAgent] {
      var rig = JudgeRig(userAgent: agent)
      let body = sdkBody(platform: agent == iosAgent ? "iOS" : "Android")
      try rig.send(0, body, 201)
      let rotated = body.replacingOccurrences(
        of: #""signedString":null"#, with: #""signedString":"sig-2""#)
      #expect(try rig.send(130, rotated, 201).isEmpty)
    }
  }

  @Test("a lost answer: the same record after a 2xx, on time, is a note for each SDK")
  func lostAnswer() throws {
    for agent in [iosAgent, androidAgent, nil] {
      var rig = JudgeRig(userAgent: agent)
      try rig.send(0, sdkBody(uuid: "a"), 201)
      let findings = try rig.send(130, sdkBody(uuid: "b"), 201)
      #expect(findings.map(\.code) == [.unchangedResent], "\(agent ?? "no agent")")
      #expect(findings.first?.severity == .note && findings.first?.cause == .lostAnswer)
    }
  }

  @Test("a key set after an anonymous registration the server refused orphans nothing")
  func keyAfterRefusedAnonymous() throws {
    for agent in [iosAgent, androidAgent] {
      var refused = JudgeRig(userAgent: agent)
      try refused.send(0, sdkBody(), 503)
      try refused.send(200, sdkBody(key: "alice@example.com"), 201)
      #expect(refused.all.isEmpty, "\(refused.all)")
      // Answered 201 but rejected in processing (S5): no contact was made either.
      var rejected = JudgeRig(userAgent: agent, defined: ["Tier"])
      try rejected.send(0, sdkBody(attributes: ["Plan": "x"]), 201)
      let keyed = try rejected.send(200, sdkBody(key: "alice@example.com"), 201)
      #expect(!keyed.map(\.code).contains(.contactKeyChanged))
    }
  }

  @Test("an app the User-Agent does not name, held to the documented contract, with its cause")
  func unknownClientWeighsPlatform() throws {
    var rig = JudgeRig(userAgent: "okhttp/4.12.0")
    try rig.send(0, Self.android(["ALL"]), 503)
    try rig.send(60, Self.android(["ALL"]), 503)
    let flat = try rig.send(120, Self.android(["ALL"]), 503)
    #expect(flat.map(\.code) == [.platformSchedule] && flat.first?.severity == .note)
    #expect(flat.first?.message.contains("User-Agent") == true)
    var hammer = JudgeRig(userAgent: "okhttp/4.12.0")
    try hammer.send(0, Self.android(["ALL"]), 503)
    #expect(try hammer.send(3, Self.android(["ALL"]), 503).map(\.severity) == [.violation])
  }

  @Test("the countdown and the judge ask one function: next allowed is the earliest send")
  func oneFunction() throws {
    var rig = JudgeRig(userAgent: iosAgent)
    try rig.send(0, Self.ios(["ALL"]), 503)
    let device = try #require(rig.watch.devices["WATCH-1"])
    let next = try #require(device.nextSend)
    #expect(next.at == Instant(120) && next.rule == "R4.1")
    #expect(try rig.send(118, Self.ios(["ALL"]), 201).map(\.severity) == [.note])
    var early = JudgeRig(userAgent: iosAgent)
    try early.send(0, Self.ios(["ALL"]), 503)
    #expect(try early.send(120, Self.ios(["ALL"]), 201).isEmpty)
  }
}
