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

  static func fields(_ payload: RegistrationPayload) -> [String: Field] {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(payload.encodedBytes()))
        as? [String: Any]
    else { return [:] }
    var fields: [String: Field] = [:]
    for (key, value) in object {
      switch value {
      case let items as [[String: Any]]:
        fields[key] = .list(items.map { "\($0["key"] ?? "")=\($0["value"] ?? "")" })
      case let items as [Any]:
        fields[key] = .list(items.map { "\($0)" })
      case is NSNull:
        continue
      default:
        fields[key] = .text("\(value)")
      }
    }
    return fields
  }
}
