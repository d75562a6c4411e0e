/// A typed value for one device field (`system set FIELD VALUE`), parsed with the rule that
/// refuses it when it is malformed (R1.1, R2.8).
public enum SystemFieldValue: Hashable, Sendable, CustomStringConvertible {
  case text(SystemField, String)
  case token(String?)
  case flag(SystemField, Bool)
  case timeZone(Int)
  case badge(Int?)

  /// Time zones span UTC-12 to UTC+14.
  public static let timeZoneRange = -12 * 3600...14 * 3600

  public var description: String {
    switch self {
    case .text(_, let text): "\"\(text)\""
    case .token(let token): token.map { "\"\($0)\"" } ?? "(none)"
    case .flag(_, let flag): String(flag)
    case .timeZone(let offset): "\"\(offset)\""
    case .badge(let badge): badge.map(String.init) ?? "(none)"
    }
  }

  public static func parse(_ field: SystemField, _ raw: String, platform: Platform) -> Result<
    SystemFieldValue, Rejection
  > {
    let text = InputRules.trimmed(raw)
    func refuse(_ reason: String) -> Result<SystemFieldValue, Rejection> {
      .failure(Rejection(rule: "R1.1", field: field.wireName, reason: reason))
    }
    switch field {
    case .timezone:
      guard let offset = Int(text) else {
        return refuse("must be a UTC offset in whole seconds, like -14400; got \"\(text)\"")
      }
      guard timeZoneRange.contains(offset) else {
        return refuse("\(offset) s is outside UTC-12 to UTC+14")
      }
      return .success(.timeZone(offset))
    case .dst, .pushEnabled, .quietPushEnabled, .locationEnabled, .proximityEnabled:
      guard let flag = InputRules.boolean(text) else {
        return refuse("must be true or false; got \"\(text)\"")
      }
      return .success(.flag(field, flag))
    case .locale, .language, .appVersion, .osVersion, .sdkVersion:
      guard !text.isEmpty else { return refuse("may not be empty") }
      return .success(.text(field, text))
    case .deviceToken:
      return .success(.token(text.isEmpty ? nil : text))
    case .badge:
      guard platform == .iOS else { return refuse("is sent on iOS only (R6.2)") }
      if text.isEmpty { return .success(.badge(nil)) }
      guard let badge = Int(text), badge >= 0 else {
        return refuse("must be a whole number, 0 or more; got \"\(text)\"")
      }
      return .success(.badge(badge))
    }
  }

  public static func read(_ field: SystemField, from env: DeviceEnvironment) -> SystemFieldValue {
    switch field {
    case .timezone: .timeZone(env.timeZone)
    case .dst: .flag(field, env.dst)
    case .locale: .text(field, env.locale)
    case .language: .text(field, env.language)
    case .appVersion: .text(field, env.appVersion)
    case .osVersion: .text(field, env.platformVersion)
    case .sdkVersion: .text(field, env.sdkVersion)
    case .deviceToken: .token(env.deviceToken)
    case .pushEnabled: .flag(field, env.pushEnabled)
    case .quietPushEnabled: .flag(field, env.quietPushEnabled)
    case .locationEnabled: .flag(field, env.locationEnabled)
    case .proximityEnabled: .flag(field, env.proximityEnabled)
    case .badge: .badge(env.badge)
    }
  }

  public static func write(_ value: SystemFieldValue, to env: inout DeviceEnvironment) {
    switch value {
    case .timeZone(let offset): env.timeZone = offset
    case .token(let token): env.deviceToken = token
    case .badge(let badge): env.badge = badge
    case .flag(let field, let flag):
      switch field {
      case .dst: env.dst = flag
      case .pushEnabled: env.pushEnabled = flag
      case .quietPushEnabled: env.quietPushEnabled = flag
      case .locationEnabled: env.locationEnabled = flag
      case .proximityEnabled: env.proximityEnabled = flag
      default: break
      }
    case .text(let field, let text):
      switch field {
      case .locale: env.locale = text
      case .language: env.language = text
      case .appVersion: env.appVersion = text
      case .osVersion: env.platformVersion = text
      case .sdkVersion: env.sdkVersion = text
      default: break
      }
    }
  }
}
