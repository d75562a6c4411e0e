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
    guard let before else { return firstRegistration }
    let old = orderedFields(before)
    let new = orderedFields(after)
    var lines: [String] = []
    for (index, key) in wireKeys.enumerated() where old[index] != new[index] {
      if RegistrationPayload.requestStampKeys.contains(key) { continue }
      switch (old[index], new[index]) {
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

  /// Made once: every new device of a fleet has this line, and a list made for each was an
  /// allocation on the server's actor, and a free when the device is dropped.
  static let firstRegistration = ["first registration"]

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

  /// The body's keys, sorted as the changes are listed (and as `CanonicalBody` writes them).
  static let wireKeys = [
    "app_Version", "attributes", "badge", "dST", "deviceID", "device_Token", "etAppId", "hwid",
    "language", "locale", "location_Enabled", "platform", "platform_Version", "proximity_Enabled",
    "push_Enabled", "quietPushEnabled", "registrationDateUtc", "registrationId", "sdk_Version",
    "signedString", "subscriberKey", "tags", "timeZone", "uuid",
  ]

  /// The payload's fields in `wireKeys`' order, nil where the body has none: each value as
  /// text (a flag as the body writes it), attributes as `key=value` and tags as lists. Read
  /// from the payload itself: every registration of a device after its first is diffed, and
  /// a round trip through its JSON cost more than the rest of the request together.
  static func orderedFields(_ payload: RegistrationPayload) -> [Field?] {
    func text(_ value: String?) -> Field? { value.map(Field.text) }
    func flag(_ value: Bool?) -> Field? { value.map { .text($0 ? "true" : "false") } }
    return [
      text(payload.appVersion),
      payload.attributes.map { .list($0.map { "\($0.key)=\($0.value)" }) },
      payload.badge.map { .text(String($0)) },
      flag(payload.dst),
      text(payload.deviceID),
      text(payload.deviceToken),
      text(payload.etAppId),
      text(payload.hwid),
      text(payload.language),
      text(payload.locale),
      flag(payload.locationEnabled),
      text(payload.platform),
      text(payload.platformVersion),
      flag(payload.proximityEnabled),
      flag(payload.pushEnabled),
      flag(payload.quietPushEnabled),
      text(payload.registrationDateUtc),
      text(payload.registrationId),
      text(payload.sdkVersion),
      text(payload.signedString),
      text(payload.subscriberKey),
      payload.tags.map(Field.list),
      text(payload.timeZone),
      text(payload.uuid),
    ]
  }
}
