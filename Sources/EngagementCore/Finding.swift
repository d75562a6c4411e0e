import Foundation
import RegistrationCore

/// One thing a watched app's registration did that a QA tester should know, in words they can
/// act on, with how much it matters.
public struct Finding: Hashable, Sendable, Codable {
  public enum Severity: String, Hashable, Sendable, Codable, CaseIterable {
    /// No correct SDK of that kind sends this: the app or its integration bypasses or misuses
    /// the SDK.
    case violation
    /// A correct SDK sends this, but it costs the business (an orphan, a rejected attribute).
    case warning
    /// Odd, but explained by a cause the server cannot see (`Cause`).
    case note
  }

  /// Why a send that looks early or repeated may still come from a correct SDK.
  public enum Cause: String, Hashable, Sendable, Codable, CaseIterable {
    /// Android sends a pending change when the app goes to the background.
    case background
    /// iOS keeps its interval in memory: a relaunched app sends about 1 s after launch.
    case relaunch
    /// The server answered, the app never heard it, and retried the same record.
    case lostAnswer
    /// The User-Agent is not a shipped SDK's, but the shipped SDK of the body's platform
    /// sends this (e.g. Android's flat 60 s retries).
    case platformSchedule

    var words: String {
      switch self {
      case .background: "background send"
      case .relaunch: "relaunch"
      case .lostAnswer: "lost answer"
      case .platformSchedule: "platform's own schedule"
      }
    }

    /// The cause that lets this SDK send a pending change early: Android's background send,
    /// iOS's relaunch (its interval lives in memory).
    static func earlySend(of profile: SDKProfile) -> Cause? {
      profile.backgroundSendsPending ? .background : profile.intervalInMemory ? .relaunch : nil
    }

    /// Whether the cause can explain every send of a run: the app can go to the background
    /// after each change, and the platform's schedule holds for each send; a relaunch every
    /// few seconds is a crash loop, not a cause.
    var repeats: Bool { self != .relaunch && self != .lostAnswer }

    /// A resend a lost answer explains is still an unchanged resend: noted under that code.
    var code: FindingCode {
      switch self {
      case .background: .backgroundSend
      case .relaunch: .relaunchSend
      case .lostAnswer: .unchangedResent
      case .platformSchedule: .platformSchedule
      }
    }

    /// Why a correct SDK sends this early; `update` names the app or SDK version the body
    /// changed ("app_Version 1.0 -> 1.1"): installing an update relaunches the app, so a
    /// relaunch is then known, not asked about.
    func explanation(update: String?) -> String {
      switch self {
      case .background:
        "the Android SDK sends this soon only when the app goes to the background with a change pending. Did the user leave the app?"
      case .relaunch:
        update.map {
          "the app was updated (\($0)), which relaunches it, and the iOS SDK sends a changed record this soon after a relaunch"
        } ?? "the iOS SDK sends this soon only after a relaunch. Did the app restart?"
      case .lostAnswer:
        "possibly a lost answer (the app never heard the 2xx and retried)"
      case .platformSchedule:
        "early for the documented contract, but the shipped SDK of its platform sends this"
      }
    }
  }

  public var code: FindingCode
  public var rule: String
  public var message: String
  public var severity: Severity
  public var cause: Cause?
  /// What to change in the app, for a violation or a warning (`FindingFix`).
  public var fix: String?

  public init(
    code: FindingCode, rule: String, message: String, severity: Severity, cause: Cause? = nil,
    fix: String? = nil
  ) {
    self.code = code
    self.rule = rule
    self.message = message
    self.severity = severity
    self.cause = cause
    self.fix = severity == .note ? nil : fix ?? FindingFix.sentence(code: code, rule: rule)
  }
}

extension Finding {
  /// A time between two requests as every finding and timeline says it, rounded once (by
  /// `DurationText.describe`: tenths of a second below a minute, whole seconds above), never
  /// to whole seconds first: the timeline's "+10.5 s" is a finding's "sent 10.5 s after",
  /// where two roundings made it 11 s in one and 10 s in another.
  public static func interval(_ seconds: Double) -> String { DurationText.describe(seconds) }

  /// The seconds `interval` shows: what a figure said beside it is worked out from, so that
  /// "sent 4 min 50 s after, 10 s too soon" adds up to the 5 min asked.
  public static func shownSeconds(_ seconds: Double) -> Double { DurationText.shown(seconds) }
}

/// A registration a real app sent, as the watch keeps it.
public struct WatchedRegistration: Hashable, Sendable, Codable {
  public var at: Instant
  /// Seconds since the device's registration before, if any.
  public var interval: Double?
  /// What the server answered (a fault's status included); nil when it answered nothing
  /// (a hang, a dropped or refused connection).
  public var status: Int?
  /// The Retry-After the answer carried, in seconds, whichever form it had.
  public var retryAfter: Double?
  /// It came as an HTTP date (RFC 9110), not as delay-seconds.
  public var retryAfterIsDate = false
  /// The device's SDK does not honour it in that form (the shipped SDKs read digits only,
  /// iOS ignores `0`: SDK-FACTS, "Throttle and retry"), so it will not wait for it.
  public var retryAfterIgnored = false
  /// The body as it arrived, cut at `DeviceWatch.bodyLimit` bytes (a hostile client must not
  /// make the watch hold its megabytes); empty once older than the newest few.
  public var body: String
  /// What differs from the registration before ("+ tag sports", "subscriberKey: A -> B").
  public var changes: [String]
  public var findings: [Finding]
  /// The answer was RegScope's own (its relay could not reach the tenant, or was full), not
  /// the tenant's.
  public var local = false
  public var subscriberTokenSent: Bool

  /// The answer's Retry-After, in the form it came, as the device's SDK reads it.
  mutating func take(_ retryAfter: RetryAfter.Value?, readBy profile: SDKProfile) {
    self.retryAfter = retryAfter?.seconds
    if case .date = retryAfter { retryAfterIsDate = true }
    retryAfterIgnored = retryAfter.map { profile.honoured($0) == nil } ?? false
  }

  /// The server refused it (S1: a wrong token or app, a body no SDK sends): the setup's
  /// problem, not a send of the app's SDK.
  public var refused: Bool { findings.contains { $0.code == .refused } }
}
