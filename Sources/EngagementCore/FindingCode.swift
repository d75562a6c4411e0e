/// What a finding is about: the one vocabulary of the watch, the judge of captures, the CI
/// gate (`--allow`) and the API (its OpenAPI enum is made from this). The device's own
/// warnings (and a state dump's) have theirs: `WarningCode`.
public enum FindingCode: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
  /// A registration sooner than the throttle allows (R4.1).
  case throttleViolated
  /// A retry sooner than the retry ladder allows (R4.2).
  case retryTooSoon
  /// Retries that do not follow the ladder's steps (R4.2).
  case retryLadderBroken
  /// A resend before a 429 or 503 answer's Retry-After (R4.2).
  case retryAfterIgnored
  /// A required field missing from the body (R6.3).
  case missingRequired
  /// An attribute under a name the SDK keeps for itself (R2.5).
  case reservedAttribute
  /// An attribute the app's attribute set does not define (S5).
  case undefinedAttribute
  /// A placeholder as the contact key (R2.4).
  case genericContactKey
  /// The contact key changed, leaving a contact behind (R8.2, R8.3).
  case contactKeyChanged
  /// The same record sent again with nothing changed (R3.4); noted, not a violation, when a
  /// lost answer explains it.
  case unchangedResent
  /// An early send the Android SDK makes when the app goes to the background.
  case backgroundSend
  /// An early send the iOS SDK makes after a relaunch.
  case relaunchSend
  /// Early for the documented contract, but the shipped SDK of the platform sends it.
  case platformSchedule
  /// The server refused the registration (S1): the setup's problem, not a send to judge.
  case refused
  /// The SDK was upgraded and the record lost tags or attributes it had (R1.4): the known
  /// migration gap of iOS 8.0.0-8.0.6 after 7.x, fixed in 8.0.7.
  case sdkUpgradeLostData
  /// A key the body holds twice (R6.2): read by its last value, as the tenant reads it; no
  /// SDK writes one, so something outside it built or changed the body.
  case duplicateKey

  public static func < (lhs: FindingCode, rhs: FindingCode) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The codes as a JSON list, for the OpenAPI document's enum.
  public static var jsonList: String {
    "[" + allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "]"
  }
}
