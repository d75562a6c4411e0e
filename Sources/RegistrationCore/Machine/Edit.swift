/// One change the app asks for. Every edit goes through the input rules of R2 and comes back
/// as an `EditOutcome`; nothing is dropped silently.
public enum Edit: Hashable, Sendable {
  case setContactKey(String)
  case clearContactKey
  /// `value == nil` models a null from the app, which R2.6 refuses.
  case setAttribute(key: String, value: String?)
  case clearAttribute(key: String)
  case addTag(String)
  case removeTag(String)
  case setSystem(SystemField, String)
}

/// The device fields an app or the OS can change at run time (`system set FIELD VALUE`).
public enum SystemField: String, Sendable, CaseIterable, Codable {
  case timezone
  case dst
  case locale
  case language
  case appVersion = "app-version"
  case osVersion = "os-version"
  case sdkVersion = "sdk-version"
  case deviceToken = "device-token"
  case pushEnabled = "push-enabled"
  case quietPushEnabled = "quiet-push-enabled"
  case locationEnabled = "location-enabled"
  case proximityEnabled = "proximity-enabled"
  case badge

  /// The wire name of the field this edits (R1.1).
  public var wireName: String {
    switch self {
    case .timezone: "timeZone"
    case .dst: "dST"
    case .locale: "locale"
    case .language: "language"
    case .appVersion: "app_Version"
    case .osVersion: "platform_Version"
    case .sdkVersion: "sdk_Version"
    case .deviceToken: "device_Token"
    case .pushEnabled: "push_Enabled"
    case .quietPushEnabled: "quietPushEnabled"
    case .locationEnabled: "location_Enabled"
    case .proximityEnabled: "proximity_Enabled"
    case .badge: "badge"
    }
  }
}

/// Whether the app's UI is showing. Edits in the background are accepted with a warning (R2.10).
public enum AppState: String, Sendable, Codable {
  case foreground
  case background
}

public enum EditOutcome: Hashable, Sendable {
  /// The record changed; a registration is scheduled (R3.2).
  case applied(PendingChange, warnings: [Warning])
  /// The edit changes nothing and schedules nothing (R2.9).
  case unchanged(reason: String)
  /// Refused: nothing changed, nothing scheduled (R2.8).
  case rejected(Rejection)

  public var isApplied: Bool {
    if case .applied = self { return true }
    return false
  }

  public var warnings: [Warning] {
    if case .applied(_, let warnings) = self { return warnings }
    return []
  }
}

/// Why an input was refused, with the rule that refuses it.
public struct Rejection: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  public var rule: String
  public var field: String
  public var reason: String

  public init(rule: String, field: String, reason: String) {
    self.rule = rule
    self.field = field
    self.reason = reason
  }

  public var description: String { "\(field): \(reason) (\(rule))" }
}

/// What a device-side warning is about: the engine's on an edit, and a state dump's reading.
public enum WarningCode: String, Sendable, Codable, CaseIterable {
  case orphanRisk
  case genericContactKey
  case backgroundEdit
  case undefinedAttribute
  case missingRequired
  /// A state dump holds an attribute under a name the SDK keeps (the engine refuses one).
  case reservedAttribute
}

/// Something accepted that a careful engineer should know about.
public struct Warning: Hashable, Sendable, Codable, CustomStringConvertible {
  public var code: WarningCode
  public var rule: String
  public var message: String

  public init(code: WarningCode, rule: String, message: String) {
    self.code = code
    self.rule = rule
    self.message = message
  }

  public var description: String { "\(code.rawValue): \(message) (\(rule))" }
}
