import Foundation
import RegistrationCore

/// What differs between two registrations, one line a change, for the timeline.
public enum PayloadDiff {
  /// How a changed `sdk_Version` reads: "SDK upgraded 9.0.3 -> 10.0.0".
  public static let upgradePrefix = "SDK upgraded "
  /// An app put back on an older SDK: "SDK downgraded 9.0.0 -> 8.2.1".
  public static let downgradePrefix = "SDK downgraded "

  public static func changes(from before: RegistrationPayload?, to after: RegistrationPayload)
    -> [String]
  {
    guard let before else { return ["first registration"] }
    let old = fields(before)
    let new = fields(after)
    var lines: [String] = []
    for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
      if RegistrationPayload.requestStampKeys.contains(key) { continue }
      switch (old[key], new[key]) {
      case (.list(let a)?, .list(let b)?):
        lines += b.filter { !a.contains($0) }.map { "+ \(key) \($0)" }
        lines += a.filter { !b.contains($0) }.map { "- \(key) \($0)" }
      case (.text(let a)?, .text(let b)?) where key == "sdk_Version":
        let later = SDKVersionNumber.isLater(b, than: a)
        lines.append("\(later ? upgradePrefix : downgradePrefix)\(a) -> \(b)")
      case (let a, let b):
        lines.append("\(key): \(a?.text ?? "(none)") -> \(b?.text ?? "(none)")")
      }
    }
    return lines.map(TerminalText.escaped)
  }

  enum Field: Equatable {
    case text(String)
    case list([String])

    var text: String {
      switch self {
      case .text(let value): value
      case .list(let values): values.joined(separator: " ")
      }
    }
  }

  /// The payload's fields by wire name, as its body carries them (`CanonicalBody`): each
  /// value as text, attributes as `key=value` and tags as lists. Read from the payload itself:
  /// every registration of a device after its first is diffed, and a round trip through its
  /// JSON cost more than the rest of the request together.
  static func fields(_ payload: RegistrationPayload) -> [String: Field] {
    var fields: [String: Field] = [:]
    fields.reserveCapacity(24)
    func text(_ key: String, _ value: String?) { if let value { fields[key] = .text(value) } }
    func flag(_ key: String, _ value: Bool?) { if let value { fields[key] = .text("\(value)") } }
    text("app_Version", payload.appVersion)
    if let attributes = payload.attributes {
      fields["attributes"] = .list(attributes.map { "\($0.key)=\($0.value)" })
    }
    if let badge = payload.badge { fields["badge"] = .text(String(badge)) }
    flag("dST", payload.dst)
    text("deviceID", payload.deviceID)
    text("device_Token", payload.deviceToken)
    text("etAppId", payload.etAppId)
    text("hwid", payload.hwid)
    text("language", payload.language)
    text("locale", payload.locale)
    flag("location_Enabled", payload.locationEnabled)
    text("platform", payload.platform)
    text("platform_Version", payload.platformVersion)
    flag("proximity_Enabled", payload.proximityEnabled)
    flag("push_Enabled", payload.pushEnabled)
    flag("quietPushEnabled", payload.quietPushEnabled)
    text("registrationDateUtc", payload.registrationDateUtc)
    text("registrationId", payload.registrationId)
    text("sdk_Version", payload.sdkVersion)
    text("signedString", payload.signedString)
    text("subscriberKey", payload.subscriberKey)
    if let tags = payload.tags { fields["tags"] = .list(tags) }
    text("timeZone", payload.timeZone)
    text("uuid", payload.uuid)
    return fields
  }
}
