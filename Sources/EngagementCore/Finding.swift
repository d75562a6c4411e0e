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

    var explanation: String {
      switch self {
      case .background:
        "the Android SDK sends this soon only when the app goes to the background with a change pending. Did the user leave the app?"
      case .relaunch:
        "the iOS SDK sends this soon only after a relaunch. Did the app restart?"
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

  /// The server refused it (S1: a wrong token or app, a body no SDK sends): the setup's
  /// problem, not a send of the app's SDK.
  public var refused: Bool { findings.contains { $0.code == .refused } }
}
