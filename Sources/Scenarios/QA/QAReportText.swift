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
      "- Result: **\(report.passed ? "passed" : "failed")** (\(report.results.filter { $0.verdict == .pass }.count) of \(report.plan.steps.count) steps passed)",
      "- Plan: \(report.plan.source)",
      "- Run: \(CaptureText.stamp(report.startedAt)) to \(CaptureText.stamp(report.endedAt))",
    ].compactMap { $0 }
    if let device = report.device {
      let identity = device.identity
      lines.append("- Device: \(device.deviceID)")
      lines.append(
        "- App: \(identity.bundleID ?? "?") \(identity.appVersion ?? "?"); SDK: \(identity.sdk.rawValue) \(identity.sdkVersion ?? "?") on \(identity.platform ?? "?") \(identity.systemVersion ?? "")"
      )
    } else {
      lines.append("- Device: none registered")
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
    if let device = report.device {
      lines += ["", "## Timeline", ""]
      lines += device.registrations.map { "    " + QAJudge.line($0) }
    }
    return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
  }

  public static func junit(_ report: QAReport) -> String {
    let failures = report.results.filter { $0.verdict == .fail }.count
    let timedOut = report.results.filter { $0.verdict == .timedOut }.count
    var xml = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="regctl qa" tests="\#(report.plan.steps.count)" failures="\#(failures)" errors="\#(timedOut)">"#,
      #"  <testsuite name="\#(escape(report.plan.name))" tests="\#(report.plan.steps.count)" failures="\#(failures)" errors="\#(timedOut)" time="\#(NumberText.compact(report.endedAt - report.startedAt))">"#,
    ]
    for result in report.results {
      let time = NumberText.compact(result.endedAt - result.startedAt)
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
      var startedAt: Double
      var endedAt: Double
      var device: WatchViews.Client?
      var deviceID: String?
      var steps: [Step]
    }
    let run = Run(
      plan: report.plan.name, passed: report.passed, startedAt: report.startedAt.seconds,
      endedAt: report.endedAt.seconds,
      device: report.device.map { WatchViews.client($0, maskToken: TokenText.fingerprinted) },
      deviceID: report.device?.deviceID,
      steps: report.results.map {
        Step(
          number: $0.step.number, step: $0.step.summary, verdict: $0.verdict.rawValue,
          deviceID: $0.deviceID, startedAt: $0.startedAt.seconds, endedAt: $0.endedAt.seconds,
          evidence: $0.evidence)
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(run)) ?? Data("{}".utf8), as: UTF8.self)
  }

  /// XML text and attribute values: markup escaped, control characters as visible escapes.
  static func escape(_ text: String) -> String {
    TerminalText.escaped(text).replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
