import Foundation
import RegistrationCore

/// A judged capture in words, device by device, as the receiver shows it: the timeline with
/// each registration's answer and findings, the findings with their rules and fixes, the next
/// send the SDK allows, whether the subscriber token came back. Tokens print masked; every
/// text from the capture prints escaped.
public enum CaptureText {
  public static func report(_ judge: CaptureJudge, sources: [String]) -> String {
    var lines = [summary(judge, sources: sources)]
    for device in judge.devices { lines += [""] + block(device) }
    if judge.devices.isEmpty {
      lines.append(
        "no registration in the capture: is it the app's traffic, captured while it registered?")
    }
    return lines.joined(separator: "\n")
  }

  /// "12 registrations, 2 devices: 1 violation, 0 warnings, 3 notes": a line for the screen.
  public static func headline(_ judge: CaptureJudge) -> String {
    let counts = judge.counts
    return "\(counts.registrations) registration\(counts.registrations == 1 ? "" : "s"), "
      + "\(judge.devices.count) device\(judge.devices.count == 1 ? "" : "s"): "
      + Finding.Severity.allCases.map { severity in
        let count = judge.devices.reduce(0) { $0 + ($1.severityCounts[severity] ?? 0) }
        return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
      }.joined(separator: ", ")
  }

  public static func summary(_ judge: CaptureJudge, sources: [String]) -> String {
    let counts = judge.counts
    let severities = Finding.Severity.allCases.map { severity in
      let count = judge.devices.reduce(0) { $0 + ($1.severityCounts[severity] ?? 0) }
      return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
    }
    var parts = [
      "\(counts.registrations) registration\(counts.registrations == 1 ? "" : "s") from \(judge.devices.count) device\(judge.devices.count == 1 ? "" : "s")",
      "\(counts.refused) refused",
      "\(counts.otherRoutes) other SDK call\(counts.otherRoutes == 1 ? "" : "s")",
      "\(counts.ignored) other entr\(counts.ignored == 1 ? "y" : "ies") ignored",
    ]
    if counts.notRegistrations > 0 {
      parts.append(
        "\(counts.notRegistrations) posted to the registration route but no registration")
    }
    if !counts.unreadable.isEmpty {
      parts.append(
        "\(counts.unreadable.count) unreadable, skipped: "
          + counts.unreadable.prefix(5).map(TerminalText.escaped).joined(separator: ", ")
          + (counts.unreadable.count > 5 ? ", ..." : ""))
    }
    if counts.duplicates > 0 {
      parts.append(
        "\(counts.duplicates) already in another file given, judged once")
    }
    if counts.skippedTimes > 0 {
      parts.append("\(counts.skippedTimes) without a readable start time, left out")
    }
    return "capture \(sources.map(TerminalText.escaped).joined(separator: ", ")): "
      + parts.joined(separator: ", ") + "; findings: " + severities.joined(separator: ", ")
  }

  static func block(_ device: DeviceWatch.Device) -> [String] {
    let identity = device.identity
    let sdk = identity.sdkName
    var lines = [
      "device \(TerminalText.escaped(device.deviceID))  \(TerminalText.escaped(sdk))"
        + (identity.bundleID.map { ", \(TerminalText.escaped($0))" } ?? "")
        + (identity.appVersion.map { " \(TerminalText.escaped($0))" } ?? "")
        + "  \(device.registrationCount) registration\(device.registrationCount == 1 ? "" : "s")"
    ]
    if device.registrationCount > device.registrations.count {
      lines.append("  (the newest \(device.registrations.count) shown)")
    }
    lines.append("  rules: \(identity.profileName)")
    // Registrations and Mobile App Messaging calls, in the order they came.
    var timeline = device.registrations.map { ($0.at, registrationLines($0)) }
    for event in device.mobileAppMessaging {
      let index = timeline.firstIndex { $0.0 > event.at } ?? timeline.count
      timeline.insert((event.at, mobileAppMessagingLines(event)), at: index)
    }
    lines += timeline.flatMap(\.1)
    if let next = device.nextSend {
      lines.append(
        "  next allowed at \(stamp(next.at)) (\(next.rule): \(TerminalText.escaped(next.why)))")
    }
    let token =
      device.tokenReturned.map { $0 ? "sent back" : "NOT sent back" } ?? "not yet due back"
    lines.append("  subscriber token \(token)")
    if !device.otherRoutes.isEmpty {
      lines.append(
        "  other SDK calls: "
          + device.otherRoutes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
          .joined(separator: ", "))
    }
    return lines
  }

  static func registrationLines(_ entry: WatchedRegistration) -> [String] {
    let retry = retryAfter(entry).map { " " + $0 } ?? ""
    var lines = [
      "  \(stamp(entry.at))  \(padded(interval(entry), 13)) \(status(entry))\(retry)"
        + (changed(entry).map { "  " + $0 } ?? "")
    ]
    for finding in entry.findings {
      lines.append(
        "      \(mark(finding.severity)) \(finding.code) (\(finding.rule)): \(TerminalText.escaped(finding.message))"
      )
      if let fix = finding.fix { lines.append("        fix: \(TerminalText.escaped(fix))") }
    }
    return lines
  }

  /// A Mobile App Messaging call: its title and status, then its fields (not judged).
  static func mobileAppMessagingLines(_ event: MobileAppMessagingEvent) -> [String] {
    let status = event.status.map(String.init) ?? "---"
    return ["  \(stamp(event.at))  \(event.title)  \(status)  (not judged: not MobilePush)"]
      + event.fields.map {
        "      \(TerminalText.escaped($0.name)): \(TerminalText.escaped($0.value))"
      }
  }

  /// `text` padded to `width`, never cut: a long interval pushes the column, it is not lost.
  static func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  /// "+1 min 1 s" since the registration before, or "first".
  public static func interval(_ entry: WatchedRegistration) -> String {
    if entry.refused { return "refused" }
    return entry.interval.map { "+" + Finding.interval($0) } ?? "first"
  }

  /// What a registration changed since the one before, as every timeline says it (`regctl
  /// judge`, a QA step's evidence, the receiver's timeline): "+ tags sports; + attributes
  /// Plan=gold"; nil when nothing did.
  public static func changed(_ entry: WatchedRegistration) -> String? {
    entry.changes.isEmpty ? nil : entry.changes.joined(separator: "; ")
  }

  /// The Retry-After its answer carried, as every timeline says it, with a word when the
  /// device's SDK will not wait for it: "Retry-After 300 s (an HTTP date, which this SDK
  /// ignores: it reads seconds only)"; nil when the answer carried none.
  public static func retryAfter(_ entry: WatchedRegistration) -> String? {
    guard let seconds = entry.retryAfter else { return nil }
    // A date is said to the second it names.
    let said =
      "Retry-After \(NumberText.compact(entry.retryAfterIsDate ? seconds.rounded() : seconds)) s"
    switch (entry.retryAfterIsDate, entry.retryAfterIgnored) {
    case (true, true):
      return said + " (an HTTP date, which this SDK ignores: it reads seconds only)"
    case (true, false): return said + " (an HTTP date)"
    case (false, true): return said + " (which this SDK ignores)"
    case (false, false): return said
    }
  }

  static func status(_ entry: WatchedRegistration) -> String {
    entry.status.map(String.init) ?? "no answer"
  }

  /// "2026-11-22 10:00:05.250Z  +61 s  503  retryTooSoon (violation)": one registration on a
  /// line, as the evidence of a QA step.
  public static func line(_ entry: WatchedRegistration) -> String {
    let findings = entry.findings.map { "\($0.code) (\($0.severity.rawValue))" }
    return ([stamp(entry.at), interval(entry), status(entry)] + findings).joined(separator: "  ")
  }

  static func mark(_ severity: Finding.Severity) -> String {
    switch severity {
    case .violation: "x violation"
    case .warning: "! warning"
    case .note: "i note"
    }
  }

  /// "2026-11-22 10:00:05.250Z": a capture's times are the wall clock's, in UTC.
  public static func stamp(_ instant: Instant) -> String {
    let stamp = DateText.utcStamp(Date(timeIntervalSince1970: instant.seconds))
    return stamp.replacingOccurrences(of: "T", with: " ")
  }
}
