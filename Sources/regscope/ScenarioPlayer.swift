import Clocks
import Foundation
import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Synchronization

/// Demo mode: plays a scenario on the session's virtual clock, walked at the demo's pace, by
/// the runner `regctl run` uses, so every check is decided exactly as there. The screen gets
/// the captions, the checks and the end.
enum ScenarioPlayer {
  static func play(
    _ scenario: Scenario, on session: DeviceSession, report: @escaping @Sendable (Wake) -> Void
  ) async {
    let note: @Sendable (DemoNote) -> Void = { report(.message(.demo($0))) }
    let pending = Mutex<[DemoCheck]>([])
    let played: (checks: [CheckResult], errors: [StepError])
    do {
      played = try await ScenarioRunner.play(
        scenario, on: session, pace: session.pace,
        onItem: { item in
          switch item {
          case .caption(let step, let at, let text): note(.caption(step: step, text: text, at: at))
          case .check(let result):
            let check = DemoCheck(
              text: shownCheck(result.text), passed: result.passed, actual: result.actual,
              sentence: result.sentence)
            let all = pending.withLock {
              $0.append(check)
              return $0
            }
            if all.count == stepChecks(scenario, result.step) {
              pending.withLock { $0 = [] }
              note(.checks(step: result.step, all))
            }
          case .stepError(let failure):
            note(.stepFailed(step: failure.step, message: failure.message))
          case .event, .command, .outcome: break
          }
        })
    } catch {
      return  // the inspector closed
    }
    session.pace?.finish()
    let passed = played.checks.filter(\.passed).count
    note(
      .finished(
        passed: passed, failed: played.checks.count - passed, errors: played.errors.count))
    let verdict =
      played.checks.count == passed && played.errors.isEmpty
      ? "all \(passed) checks passed"
      : "\(played.checks.count - passed) of \(played.checks.count) checks failed"
    report(
      .message(
        .notice(
          "demo \(scenario.name) finished: \(verdict); n goes on to what is still due, q quits",
          isError: passed < played.checks.count)))
  }

  /// A check as the screen shows it: an instant written as a time since the start
  /// (`nextSend == 122820` reads `nextSend == 1d 10:07:00`), never raw seconds.
  static func shownCheck(_ text: String) -> String {
    let parts = text.split(separator: " ", maxSplits: 2).map(String.init)
    guard parts.count == 3, parts[0] == "nextSend",
      let seconds = DurationText.seconds(parts[2]) ?? Double(parts[2])
    else { return text }
    return "\(parts[0]) \(parts[1]) \(Timestamp.format(Instant(seconds)))"
  }

  private static func stepChecks(_ scenario: Scenario, _ number: Int) -> Int {
    scenario.steps.first { $0.number == number }?.checks.count ?? 0
  }
}
