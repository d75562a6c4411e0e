import EngagementCore
import Foundation
import RegistrationCore

/// A QA run's report: Markdown for a ticket, JUnit XML for CI, JSON for scripts.
public enum QAReportText {
  public static func markdown(_ report: QAReport) -> String {
    var lines = [
      "# QA run: \(report.plan.name)", "",
      report.plan.description.isEmpty ? nil : report.plan.description,
      report.plan.description.isEmpty ? nil : "",
      "- Result: **\(verdict(report))** (\(report.results.filter { $0.verdict == .pass }.count) of \(report.plan.steps.count) steps passed)",
      "- Plan: \(report.plan.source)",
      "- Run: \(CaptureText.stamp(report.startedAt)) to \(CaptureText.stamp(report.endedAt))",
      "- RegScope: \(report.context.version)",
      report.context.receiver.map { "- Receiver: \($0)" },
      report.context.app.map { "- Accepted: \($0)" },
      "- Capture: \(report.context.har ?? "none kept (--har FILE keeps one)")",
    ].compactMap { $0 }
    if let device = report.device {
      let identity = device.identity
      lines.append("- Device: \(code(device.deviceID))")
      lines.append(
        "- App: \(identity.bundleID ?? "?") \(identity.appVersion ?? "?"); SDK: \(identity.sdk.rawValue) \(identity.sdkVersion ?? "?") on \(identity.platform ?? "?") \(identity.systemVersion ?? "")"
      )
    } else {
      lines.append("- Device: none registered")
    }
    if report.interrupted {
      let running = report.results.first { $0.verdict == .interrupted }
      lines.append(
        "- Stopped before the end (Ctrl-C): "
          + (running.map { "step \($0.step.number) was interrupted, with what it had seen; " } ?? "")
          + "the steps not reached are marked not run")
    }
    lines += ["", "| # | step | verdict |", "| --- | --- | --- |"]
    for result in report.results {
      lines.append(
        "| \(result.step.number) | \(cell(result.step.summary)) | \(result.verdict.rawValue) |")
    }
    for result in report.results {
      lines += [
        "", "## Step \(result.step.number): \(result.verdict.rawValue)", "", result.step.summary,
        "",
      ]
      lines += result.evidence.map { "    " + $0 }
    }
    lines += tenantLines(report)
    if let device = report.device {
      lines += ["", "## Timeline", ""]
      // Each registration with its findings' messages and, for a violation or a warning,
      // what to change in the app.
      lines += device.registrations.flatMap { QAJudge.detailed($0, report.knowledge) }.map {
        "    " + $0
      }
    }
    return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
  }

  public static func junit(_ report: QAReport) -> String {
    let failures = report.results.filter { $0.verdict == .fail }.count
    // A step that timed out, or that the run's stop interrupted, was never decided: an error.
    let timedOut = report.results.filter { $0.verdict == .timedOut || $0.verdict == .interrupted }
      .count
    var xml = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="regctl qa" tests="\#(report.plan.steps.count)" failures="\#(failures)" errors="\#(timedOut)">"#,
      #"  <testsuite name="\#(escape(report.plan.name))" tests="\#(report.plan.steps.count)" failures="\#(failures)" errors="\#(timedOut)" time="\#(seconds(report.endedAt - report.startedAt))">"#,
    ]
    for result in report.results {
      let time = seconds(result.endedAt - result.startedAt)
      xml.append(
        #"    <testcase classname="\#(escape(report.plan.name))" name="\#(escape("\(result.step.number). \(result.step.summary)"))" time="\#(time)">"#
      )
      let evidence = escape(result.evidence.joined(separator: "\n"))
      switch result.verdict {
      case .pass: break
      case .fail:
        xml.append(
          #"      <failure message="\#(escape(result.step.summary))">\#(evidence)</failure>"#)
      case .timedOut:
        xml.append(#"      <error message="timed out">\#(evidence)</error>"#)
      case .interrupted:
        xml.append(
          #"      <error message="interrupted: the run was stopped during this step">\#(evidence)</error>"#
        )
      case .notRun:
        xml.append(#"      <skipped message="not run: the run was stopped"/>"#)
      }
      xml.append("    </testcase>")
    }
    xml += ["  </testsuite>", "</testsuites>"]
    return xml.joined(separator: "\n") + "\n"
  }

  public static func json(_ report: QAReport) -> String {
    struct Step: Encodable {
      var number: Int
      var step: String
      var verdict: String
      var deviceID: String?
      var startedAt: Double
      var endedAt: Double
      var evidence: [String]
    }
    struct Run: Encodable {
      var plan: String
      var passed: Bool
      var interrupted: Bool
      var version: String
      var receiver: String?
      var app: String?
      var har: String?
      var startedAt: Double
      var endedAt: Double
      var device: WatchViews.Client?
      var deviceID: String?
      var steps: [Step]
      /// The tenant's answers to "did it arrive?" during the run, and when the next was due.
      var readBacks: [ReadBack]?
      var readBackDue: Double?
    }
    let run = Run(
      plan: report.plan.name, passed: report.passed, interrupted: report.interrupted,
      version: report.context.version, receiver: report.context.receiver,
      app: report.context.app, har: report.context.har, startedAt: report.startedAt.seconds,
      endedAt: report.endedAt.seconds,
      device: report.device.map { WatchViews.client($0) },
      deviceID: report.device?.deviceID,
      steps: report.results.map {
        Step(
          number: $0.step.number, step: $0.step.summary, verdict: $0.verdict.rawValue,
          deviceID: $0.deviceID, startedAt: $0.startedAt.seconds, endedAt: $0.endedAt.seconds,
          evidence: $0.evidence)
      },
      readBacks: report.device.flatMap { $0.readBacks.isEmpty ? nil : $0.readBacks },
      readBackDue: report.device?.readBackDue?.seconds)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(run)) ?? Data("{}".utf8), as: UTF8.self)
  }

  /// "qa-throttle-20261125T121530Z.md": the plan's name made safe for a file name (never a
  /// path: anything but letters, digits, dash and underscore becomes a dash) and the run's
  /// start in UTC.
  public static func fileName(_ report: QAReport) -> String {
    let safe = String(
      report.plan.name.unicodeScalars.prefix(64).map { scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar) || "_-".unicodeScalars.contains(scalar))
          ? Character(scalar) : "-"
      }
    ).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    let stamp = DateText.utcStamp(Date(timeIntervalSince1970: report.startedAt.seconds))
      .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
      .prefix(15)
    return "qa-\(safe.isEmpty ? "plan" : safe)-\(stamp)Z.md"
  }

  /// The verdict of the whole run, in a word.
  public static func verdict(_ report: QAReport) -> String {
    report.passed ? "passed" : report.interrupted ? "stopped" : "failed"
  }

  /// "2 of 3 steps passed; step 2 failed: expect: ...": a line for the terminal.
  public static func summaryLine(_ report: QAReport, written: [String]) -> String {
    let passedCount = report.results.filter { $0.verdict == .pass }.count
    let first = report.results.first { $0.verdict != .pass }
    return
      "QA \(report.plan.name): \(verdict(report)), \(passedCount) of \(report.plan.steps.count) steps passed"
      + (first.map { result in
        // An ask is a sentence: its full stop does not stand before the "; ".
        let summary = result.step.summary
        let said = summary.hasSuffix(".") ? String(summary.dropLast()) : summary
        return "; step \(result.step.number) \(result.verdict.rawValue): \(said)"
      } ?? "")
      + (written.isEmpty ? "" : "; report in " + written.joined(separator: ", "))
  }

  /// Seconds with millisecond precision, as JUnit readers expect: `0.021`.
  static func seconds(_ value: Double) -> String {
    guard value.isFinite, value >= 0 else { return "0.000" }
    return String(format: "%.3f", value)
  }

  /// XML text and attribute values: markup escaped, control characters as visible escapes.
  static func escape(_ text: String) -> String {
    xmlCharacters(TerminalText.escaped(text)).replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// Only characters XML 1.0 allows (tab, newline, return, U+0020-U+D7FF, U+E000-U+FFFD,
  /// U+10000 and up); any other is written as its code, so a parser never refuses the file.
  static func xmlCharacters(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
        out.append(scalar)
      default:
        out.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      }
    }
    return String(out)
  }

  /// Text from a device as a Markdown code span, so `<script>` or `[a](b)` in a device id is
  /// shown as written and never becomes markup or a link in a ticket. The fence is padded
  /// with a space only where CommonMark needs one (text that begins or ends with a backtick,
  /// or with a space at both ends, which a reader strips): `QA-1` reads as written.
  static func code(_ text: String) -> String {
    let longest = text.split(whereSeparator: { $0 != "`" }).map(\.count).max() ?? 0
    let fence = String(repeating: "`", count: longest + 1)
    let padded =
      text.isEmpty || text.hasPrefix("`") || text.hasSuffix("`")
      || (text.hasPrefix(" ") && text.hasSuffix(" "))
    return padded ? "\(fence) \(text) \(fence)" : "\(fence)\(text)\(fence)"
  }

  static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
