import Foundation
import RegistrationCore
import Scenarios
import Session
import SessionValues

/// Demo mode: plays a scenario's steps live on the session's clock, and says what each
/// expectation found, so a marketer sees the rules happen at the chosen speed.
enum ScenarioPlayer {
  static func play(
    _ scenario: Scenario, on session: DeviceSession, report: @Sendable (Wake) -> Void
  )
    async
  {
    let start = session.now
    report(.message("demo \(scenario.name): \(scenario.description)", isError: false))
    for step in scenario.steps {
      do {
        try await session.sleep(until: start + step.at.seconds)
      } catch {
        return
      }
      // A caption says what the step means; without one, the commands say what it does.
      var failed = false
      var done: [String] = []
      for action in step.actions where action.command != .launch {
        do {
          _ = try await session.execute(action.command)
          done.append(action.text)
        } catch {
          done.append("\(action.text): \(error)")
          failed = true
        }
      }
      var said =
        step.say.map { "step \(step.number): \($0)" }
        ?? (done.isEmpty ? nil : "step \(step.number): " + done.joined(separator: "; "))
      if !step.checks.isEmpty {
        let context = Expectation.Context(
          events: session.log.all, device: try? await session.deviceSnapshot(),
          server: await session.server.snapshot())
        let results = step.checks.map { check -> String in
          let (passed, actual) = check.expectation.evaluate(in: context)
          if !passed { failed = true }
          return passed ? "✓ \(check.text)" : "✗ \(check.text) (\(actual))"
        }
        said = (said ?? "step \(step.number):") + "  " + results.joined(separator: "  ")
      }
      if let said { report(.message(said, isError: failed)) }
    }
    report(.message("demo \(scenario.name) finished", isError: false))
  }
}
