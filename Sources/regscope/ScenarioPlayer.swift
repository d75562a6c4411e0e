import Foundation
import RegistrationCore
import Scenarios
import Session

/// Demo mode: plays a scenario's steps live on the session's clock, and says what each
/// expectation found, so a marketer sees the rules happen at the chosen speed.
enum ScenarioPlayer {
  static func play(_ scenario: Scenario, on session: Session, report: @Sendable (Wake) -> Void)
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
      for action in step.actions where action.command != .launch {
        do {
          _ = try await session.execute(action.command)
          report(.message("step \(step.number): \(action.text)", isError: false))
        } catch {
          report(.message("step \(step.number): \(action.text): \(error)", isError: true))
        }
      }
      guard !step.checks.isEmpty else { continue }
      let context = Expectation.Context(
        events: session.log.all, device: try? await session.deviceSnapshot(),
        server: await session.server.snapshot())
      let results = step.checks.map { check -> String in
        let (passed, actual) = check.expectation.evaluate(in: context)
        return passed ? "✓ \(check.text)" : "✗ \(check.text) (\(actual))"
      }
      report(
        .message(
          "step \(step.number): " + results.joined(separator: "  "),
          isError: results.contains { $0.hasPrefix("✗") }))
    }
    report(.message("demo \(scenario.name) finished", isError: false))
  }
}
