import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues

/// What a run shows, in order: the engine's and the server's events, each command a step
/// carried out, and each expectation with its verdict.
public enum TimelineItem: Sendable {
  case event(RunEvent)
  /// A step's command, just before it runs.
  case command(step: Int, at: Instant, text: String)
  /// A step's caption (`say:`), before its commands.
  case caption(step: Int, at: Instant, text: String)
  /// What a command did, when its events do not already say it (a refusal, a no-op, the
  /// server's new state).
  case outcome(step: Int, at: Instant, text: String, outcome: String)
  case check(CheckResult)
  case stepError(StepError)
}

public struct CheckResult: Sendable {
  public var step: Int
  public var at: Instant
  public var text: String
  public var position: SourcePosition
  public var passed: Bool
  public var actual: String
}

/// A command that could not be carried out (the app not launched, the store unwritable).
public struct StepError: Error, Sendable, CustomStringConvertible {
  public var step: Int
  public var position: SourcePosition
  public var message: String

  public var description: String { "\(position): step \(step): \(message)" }
}

public struct ScenarioReport: Sendable {
  public var scenario: Scenario
  public var events: [RunEvent]
  public var checks: [CheckResult]
  public var errors: [StepError]
  public var serverStats: ServerStats
  public var wallSeconds: Double

  public var passed: Bool { errors.isEmpty && checks.allSatisfy(\.passed) }
  public var failures: [CheckResult] { checks.filter { !$0.passed } }
}

public enum ScenarioRunner {
  /// Runs a scenario in virtual time; `onItem` sees each item as it happens. `factory` gives
  /// the network: `overHTTP` sends over real loopback HTTP, which needs one.
  public static func run(
    _ scenario: Scenario, factory: SessionFactory = SessionFactory(), overHTTP: Bool = false,
    sdk: SDKProfile? = nil, onItem: (@Sendable (TimelineItem) -> Void)? = nil
  ) async throws -> ScenarioReport {
    let started = ContinuousClock.now
    var setup = scenario.setup
    if let sdk { setup.use(sdk) }
    let log = RunLog { event in onItem?(.event(event)) }
    let simulation = try await factory.device(
      setup, place: try SessionPlace.virtual(route: overHTTP ? .loopback : .inProcess), log: log)
    var checks: [CheckResult] = []
    var errors: [StepError] = []
    for step in scenario.steps {
      try await simulation.advance(to: step.at)
      if let say = step.say { onItem?(.caption(step: step.number, at: simulation.now, text: say)) }
      for action in step.actions {
        onItem?(.command(step: step.number, at: simulation.now, text: action.text))
        do {
          let outcome = try await simulation.execute(action.command)
          if let text = notable(outcome) {
            onItem?(
              .outcome(step: step.number, at: simulation.now, text: action.text, outcome: text))
          }
        } catch {
          let failure = StepError(
            step: step.number, position: action.position, message: "\(action.text): \(error)")
          errors.append(failure)
          onItem?(.stepError(failure))
        }
      }
      if !step.checks.isEmpty {
        // Let anything due at this very instant happen before looking.
        try await simulation.advance(to: step.at)
        let context = Expectation.Context(
          events: log.all, device: try await simulation.deviceSnapshot(),
          server: await simulation.server.snapshot())
        for check in step.checks {
          let (passed, actual) = check.expectation.evaluate(in: context)
          let result = CheckResult(
            step: step.number, at: simulation.now, text: check.text, position: check.position,
            passed: passed, actual: actual)
          checks.append(result)
          onItem?(.check(result))
        }
      }
    }
    let stats = await simulation.server.stats()
    await simulation.stop()
    let elapsed = ContinuousClock.now - started
    return ScenarioReport(
      scenario: scenario, events: log.all, checks: checks, errors: errors, serverStats: stats,
      wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds)
        / 1e18)
  }

  /// What the events of a command leave unsaid: edits and refusals are events already.
  static func notable(_ outcome: CommandOutcome) -> String? {
    // A launch is the launched event's to say.
    if case .launched = outcome { return nil }
    return outcome.unsaid
  }
}
