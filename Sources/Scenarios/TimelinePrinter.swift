import Foundation
import RegistrationCore
import Session
import SessionValues

/// Renders a run for a person (the timeline) or for a machine (one JSON object a line).
public enum TimelinePrinter {
  public static func line(_ item: TimelineItem, json: Bool) -> String? {
    switch item {
    case .event(let event):
      if json { return event.jsonLine }
      return "\(pad(Timestamp.format(event.t), 12))  \(pad(event.type, 16))\(event.detail)"
    case .command(_, let at, let text):
      if json {
        var line = JSONLine()
        line.add("t", at.seconds)
        line.add("type", "command")
        line.add("command", text)
        return line.text
      }
      return "\(pad(Timestamp.format(at), 12))  > \(TerminalText.escaped(text))"
    case .caption(_, let at, let text):
      if json {
        var line = JSONLine()
        line.add("t", at.seconds)
        line.add("type", "say")
        line.add("say", text)
        return line.text
      }
      return "\(pad(Timestamp.format(at), 12))  # \(TerminalText.escaped(text))"
    case .outcome(_, let at, let text, let outcome):
      if json {
        var line = JSONLine()
        line.add("t", at.seconds)
        line.add("type", "outcome")
        line.add("command", text)
        line.add("outcome", outcome)
        return line.text
      }
      return "\(pad(Timestamp.format(at), 12))    \(TerminalText.escaped(outcome))"
    case .check(let result):
      if json {
        var line = JSONLine()
        line.add("t", result.at.seconds)
        line.add("type", "expect")
        line.add("expect", result.text)
        line.add("passed", result.passed)
        line.add("actual", result.actual)
        line.add("where", result.position.description)
        return line.text
      }
      let mark = result.passed ? "ok  " : "FAIL"
      var text =
        "\(pad(Timestamp.format(result.at), 12))  \(mark) expect \(TerminalText.escaped(result.text))"
      if !result.passed {
        text +=
          "\n\(pad("", 12))       actual: \(result.actual)   (step \(result.step), \(result.position))"
      }
      return text
    case .stepError(let error):
      if json {
        var line = JSONLine()
        line.add("type", "error")
        line.add("message", error.message)
        line.add("where", error.position.description)
        return line.text
      }
      return "\(pad("", 12))  ERROR \(TerminalText.escaped(error.description))"
    }
  }

  /// The last record of a scenario's `--json` stream: whether it passed, and each failure.
  public static func summaryJSON(_ report: ScenarioReport) -> String {
    struct Failure: Encodable {
      var step: Int
      var expect: String
      var actual: String
      var position: String
    }
    struct Summary: Encodable {
      var type = "summary"
      var scenario: String
      var passed: Bool
      var checks: Int
      var checksPassed: Int
      var failures: [Failure]
      var errors: [String]
      var events: Int
      var distinctContacts: Int
      var orphanedContacts: Int
      /// Registrations the server had not processed when the scenario ended (S2).
      var pending: Int
      var wallMilliseconds: Double
    }
    let summary = Summary(
      scenario: report.scenario.name, passed: report.passed, checks: report.checks.count,
      checksPassed: report.checks.filter(\.passed).count,
      failures: report.failures.map {
        Failure(
          step: $0.step, expect: $0.text, actual: $0.actual, position: $0.position.description)
      }, errors: report.errors.map(\.description), events: report.events.count,
      distinctContacts: report.serverStats.distinctContacts,
      orphanedContacts: report.serverStats.orphanedContacts, pending: report.serverStats.pending,
      wallMilliseconds: (report.wallSeconds * 10_000).rounded() / 10)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(summary)) ?? Data("{}".utf8)
    return String(decoding: JSONText.escapingInvisibles(Array(data)), as: UTF8.self)
  }

  /// The last record of a `--json` run of several scenarios: how many passed, as the text
  /// run's last line says it.
  /// The total of a run of several scenarios: `failed` ran and failed a check, `unreadable`
  /// could not be read, the rest passed.
  public static func totalJSON(scenarios: Int, failed: Int, unreadable: Int = 0) -> String {
    var line = JSONLine()
    line.add("type", "total")
    line.add("scenarios", scenarios)
    line.add("passed", scenarios - failed - unreadable)
    line.add("failed", failed)
    line.add("unreadable", unreadable)
    return line.text
  }

  /// The same total for a person.
  public static func total(scenarios: Int, failed: Int, unreadable: Int = 0) -> String {
    "\(scenarios - failed - unreadable) passed, \(failed) failed"
      + (unreadable > 0 ? ", \(unreadable) could not be read" : "")
  }

  /// A scenario that cannot be read, as a record of a `--json` run (the run exits 2; the
  /// other scenarios named still run).
  public static func loadErrorJSON(_ error: any Error, name: String) -> String {
    var line = JSONLine()
    line.add("type", "error")
    line.add("scenario", name)
    if let error = error as? ScenarioError {
      line.add("message", error.message)
      line.add("where", error.position.description)
    } else {
      line.add("message", "\(error)")
    }
    return line.text
  }

  public static func summary(_ report: ScenarioReport) -> String {
    let passedChecks = report.checks.filter(\.passed).count
    let verdict = report.passed ? "PASS" : "FAIL"
    var text =
      "\(verdict) \(TerminalText.escaped(report.scenario.name)): \(passedChecks)/\(report.checks.count) expectations held, "
      + "\(report.events.count) events, server: \(report.serverStats.distinctContacts) distinct contact"
      + "\(report.serverStats.distinctContacts == 1 ? "" : "s"), \(report.serverStats.orphanedContacts) orphaned"
      + Self.waiting(report.serverStats.pending)
      + " (\(String(format: "%.1f", report.wallSeconds * 1000)) ms)"
    for failure in report.failures {
      text +=
        "\n  expected \(TerminalText.escaped(failure.text)) at step \(failure.step) "
        + "(\(TerminalText.escaped(failure.position.description))); \(failure.actual)"
    }
    // Names, expectation texts and step errors come from the scenario file: escape them.
    for error in report.errors { text += "\n  " + TerminalText.escaped(error.description) }
    return text
  }

  /// Registrations the scenario ended before the server processed (S2): a contact count of
  /// 0 after a run that sent is not a contact lost.
  static func waiting(_ pending: Int) -> String {
    guard pending > 0 else { return "" }
    return ", \(pending) registration\(pending == 1 ? "" : "s") not processed yet (S2)"
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}
