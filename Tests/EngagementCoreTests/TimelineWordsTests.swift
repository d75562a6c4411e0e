import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// #51, the walk's item 5: one wording for what a registration's row says wherever it is
/// said (`regctl judge`, a QA report, the receiver's timeline), one rounding for an interval,
/// an update's relaunch said as one, and a Retry-After date said as this SDK reads it.
@Suite("a registration's words, said once")
struct TimelineWordsTests {
  static let ios =
    "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0"

  static func body(tags: [String] = ["ALL"], sdk: String = "10.0.0", app: String = "1.0")
    -> String
  {
    sdkBody(device: "W", platform: "iOS", tags: tags, uuid: "U")
      .replacingOccurrences(of: #""sdk_Version":"10.0.0""#, with: #""sdk_Version":"\#(sdk)""#)
      .replacingOccurrences(of: #""app_Version":"1.0""#, with: #""app_Version":"\#(app)""#)
  }

  @Test("an interval has one rounding: the finding's 'sent 10.5 s after' is the row's '+10.5 s'")
  func oneRounding() throws {
    var rig = JudgeRig(userAgent: Self.ios)
    try rig.send(1_000.25, Self.body(), 201)
    // A relaunched iOS app sends its change about a second after launch: noted, with the
    // interval. 10.46 s read "10 s" in the finding (rounded to whole seconds first) and
    // "+10.5 s" on its row.
    let findings = try rig.send(1_010.71, Self.body(tags: ["ALL", "a"]), 201)
    let note = try #require(findings.first { $0.code == .relaunchSend })
    let entry = try #require(rig.watch.devices["W"]?.registrations.last)
    #expect(CaptureText.interval(entry) == "+10.5 s")
    #expect(note.message.hasPrefix("sent 10.5 s after the one before"), "\(note.message)")
    #expect(Finding.interval(10.46) == "10.5 s" && Finding.interval(61.5) == "1 min 2 s")
    // What is worked out beside a shown figure is worked out from it.
    #expect(Finding.shownSeconds(289.5) == 290 && Finding.shownSeconds(10.46) == 10.5)
  }

  @Test("an update's relaunch is said as one; a relaunch with no update is still asked about")
  func updateRelaunch() throws {
    var rig = JudgeRig(userAgent: Self.ios)
    try rig.send(0, Self.body(), 201)
    let asked = try rig.send(5, Self.body(tags: ["ALL", "a"]), 201)
    #expect(asked.first?.message.contains("Did the app restart?") == true, "\(asked)")
    var updated = JudgeRig(userAgent: Self.ios)
    try updated.send(0, Self.body(), 201)
    updated.userAgent = Self.ios.replacingOccurrences(of: "10.0.0", with: "10.0.1")
      .replacingOccurrences(of: "app/1.0", with: "app/1.1")
    let findings = try updated.send(5, Self.body(sdk: "10.0.1", app: "1.1"), 201)
    let note = try #require(findings.first { $0.code == .relaunchSend }, "\(findings)")
    #expect(!note.message.contains("Did the app restart?"), "\(note.message)")
    #expect(
      note.message.contains(
        "the app was updated (app_Version 1.0 -> 1.1, sdk_Version 10.0.0 -> 10.0.1), which relaunches it"
      ), "\(note.message)")
  }

  @Test(
    "a Retry-After date is said with whether this SDK reads dates: iOS and Android ignore them",
    arguments: [
      (Self.ios, "Retry-After 120 s (an HTTP date, which this SDK ignores: it reads seconds only)"),
      (
        "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
        "Retry-After 120 s (an HTTP date, which this SDK ignores: it reads seconds only)"
      ),
      ("okhttp/4.12", "Retry-After 120 s (an HTTP date)"),
    ])
  func retryAfterDate(agent: String, said: String) throws {
    var rig = JudgeRig(userAgent: agent)
    // 07:28:40 GMT is 120 s after the answer.
    try rig.send(0, Self.body(), 429, retryAfter: "Wed, 21 Oct 2015 07:28:40 GMT")
    let device = try #require(rig.watch.devices["W"])
    let entry = try #require(device.registrations.last)
    #expect(CaptureText.retryAfter(entry) == said)
    // regctl judge's row says the same words.
    let judge = CaptureText.block(device).joined(separator: "\n")
    #expect(judge.contains("429 " + said), "\(judge)")
  }

  @Test("Retry-After in seconds is said plain; iOS's 0, which it ignores, says so")
  func retryAfterSeconds() throws {
    var rig = JudgeRig(userAgent: Self.ios)
    try rig.send(0, Self.body(), 503, retryAfter: "300")
    var entry = try #require(rig.watch.devices["W"]?.registrations.last)
    #expect(CaptureText.retryAfter(entry) == "Retry-After 300 s")
    try rig.send(400, Self.body(), 503, retryAfter: "0")
    entry = try #require(rig.watch.devices["W"]?.registrations.last)
    #expect(CaptureText.retryAfter(entry) == "Retry-After 0 s (which this SDK ignores)")
  }

  @Test("what a registration changed is one sentence: judge's row ends with it")
  func changedOnce() throws {
    var rig = JudgeRig(userAgent: Self.ios)
    try rig.send(0, Self.body(), 201)
    try rig.send(61, Self.body(tags: ["ALL", "sports"]), 201)
    let device = try #require(rig.watch.devices["W"])
    let entry = try #require(device.registrations.last)
    #expect(CaptureText.changed(entry) == "+ tags sports")
    #expect(CaptureText.block(device).contains { $0.hasSuffix("201  + tags sports") })
  }
}
