import Foundation
import RegistrationCore
import SessionValues

/// What `regctl state --import` prints: the reading in words, or as JSON.
public enum StateDumpReport {
  public static func text(_ reading: StateDumpReading) -> String {
    var lines: [String]
    switch reading.shape {
    case .android: lines = ["Android SDK state dump (getSdkState)"]
    case .unified: lines = ["Android SDK state dump, in the unified SDK's wrapper"]
    case .ios: lines = ["iOS SDK state dump (sfmc_getSDKState)"]
    }
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

  public static func json(_ reading: StateDumpReading) -> String {
    let object: [String: Any] = [
      "shape": reading.shape.rawValue,
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
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
    return JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self))
  }
}
