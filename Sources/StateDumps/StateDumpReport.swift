import Foundation
import RegistrationCore
import SessionValues

/// What `regctl state --import` prints: the reading in words, or as JSON.
public enum StateDumpReport {
  public static func text(_ reading: StateDumpReading) -> String {
    var lines = [title(reading), "read with the profile \(profileName(reading))"]
    if let mismatch = reading.versionMismatch { lines.append("note: \(mismatch)") }
    lines.append(
      "device \(reading.current.deviceID ?? "(none)"), app \(reading.current.etAppId ?? "(none)")")
    lines.append("contact key: \(reading.current.subscriberKey.map { "\"\($0)\"" } ?? "(none)")")
    lines.append(
      "last sent: "
        + (reading.lastSentAt.map(SDKStateDump.stamp)
          ?? (reading.lastSent == nil ? "never" : "(no date in the dump)")))
    if reading.pending.isEmpty {
      lines.append("pending: nothing (the current registration is the one last sent)")
    } else {
      lines.append("pending (the current registration against the last sent):")
      lines += reading.pending.map { "  " + $0 }
    }
    lines.append("next registration: \(reading.nextDue)")
    if reading.findings.isEmpty {
      lines.append("findings: none")
    } else {
      lines.append("findings:")
      lines += reading.findings.map { "  \($0.code) (\($0.rule)): \($0.message)" }
    }
    return lines.joined(separator: "\n")
  }

  /// "Android SDK 9.0.3 state dump, flat in SFMCSdk 1.0.5's wrapper (the 8.x/9.x form)".
  static func title(_ reading: StateDumpReading) -> String {
    let version = reading.sdkVersion.map { " \(TerminalText.escaped($0))" } ?? ""
    switch (reading.shape, reading.wrapper) {
    case (.ios, _): return "iOS SDK\(version) state dump (sfmc_getSDKState)"
    case (_, .flat(let unified)?):
      return
        "Android SDK\(version) state dump, flat in SFMCSdk \(unified)'s wrapper (the 8.x/9.x form)"
    case (_, .modules(let unified)?):
      return
        "Android SDK\(version) state dump, in SFMCSdk \(unified)'s modules wrapper (the 10.x form)"
    default: return "Android SDK\(version) state dump (getSdkState)"
    }
  }

  /// As `--sdk` names it: "android@9.0.3".
  static func profileName(_ reading: StateDumpReading) -> String {
    "\(reading.profile.name.rawValue)@\(reading.profile.sdkVersion)"
  }

  /// `compact`: one line (`--json`), not indented for a person.
  public static func json(_ reading: StateDumpReading, compact: Bool = false) -> String {
    var wrapper: [String: String]?
    switch reading.wrapper {
    case .flat(let unified)?: wrapper = ["form": "flat", "sfmcSDKVersion": unified]
    case .modules(let unified)?: wrapper = ["form": "modules", "sfmcSDKVersion": unified]
    case nil: wrapper = nil
    }
    let object: [String: Any] = [
      "shape": reading.shape.rawValue,
      "sdkVersion": reading.sdkVersion as Any,
      "profile": profileName(reading),
      "wrapper": wrapper as Any,
      "versionMismatch": reading.versionMismatch as Any,
      "deviceID": reading.current.deviceID as Any,
      "contactKey": reading.current.subscriberKey as Any,
      "lastSentAt": reading.lastSentAt.map { SDKStateDump.stamp($0) as Any } ?? NSNull(),
      "pending": reading.pending,
      "nextDue": reading.nextDue,
      "findings": reading.findings.map {
        ["code": $0.code.rawValue, "rule": $0.rule, "message": $0.message]
      },
    ]
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object,
        options: compact
          ? [.sortedKeys, .withoutEscapingSlashes]
          : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
    return JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self))
  }
}
