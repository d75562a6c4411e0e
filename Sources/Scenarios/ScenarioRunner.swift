import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues
import YAMLFiles

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
  /// What the check proves, in words (`Expectation.sentence`), else the step's `say:`.
  public var sentence: String?
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
    let opened = try await factory.open(
      .device(setup, try SessionPlace.virtual(route: overHTTP ? .loopback : .inProcess)),
      log: log)
    guard let simulation = opened.device else { throw SessionError.noDevice("run") }
    let (checks, errors) = try await play(scenario, on: simulation, onItem: onItem)
    let stats = await simulation.server.stats()
    await simulation.stop()
    let elapsed = ContinuousClock.now - started
    return ScenarioReport(
      scenario: scenario, events: simulation.log.all, checks: checks, errors: errors,
      serverStats: stats,
      wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds)
        / 1e18)
  }

  /// Plays the steps on `simulation`, a session on a virtual clock: each step at its instant,
  /// its caption, its commands, then, once everything due at that instant has happened, its
  /// checks. With `pace` (a demo in the inspector) the clock is walked there for the eye and
  /// each caption held long enough to read; without it, it jumps. Either way the same things
  /// happen at the same instants, so a demo's checks are exactly `regctl run`'s.
  public static func play(
    _ scenario: Scenario, on simulation: DeviceSession, pace: DemoPace? = nil,
    onItem: (@Sendable (TimelineItem) -> Void)? = nil
  ) async throws -> (checks: [CheckResult], errors: [StepError]) {
    var checks: [CheckResult] = []
    var errors: [StepError] = []
    for step in scenario.steps {
      try await walk(simulation, to: step.at, pace: pace)
      if let say = step.say { onItem?(.caption(step: step.number, at: simulation.now, text: say)) }
      errors += await perform(step, on: simulation, onItem: onItem)
      if !step.checks.isEmpty {
        // Let anything due at this very instant happen before looking.
        try await simulation.advance(to: step.at)
        checks += await check(step, on: simulation, onItem: onItem)
      }
      if step.say != nil { try await pace?.holdCaption() }
    }
    return (checks, errors)
  }

  /// Moves the clock to `target`, everything due on the way happening in order.
  static func walk(_ simulation: DeviceSession, to target: Instant, pace: DemoPace?) async throws {
    guard let pace else { return try await simulation.advance(to: target) }
    while simulation.now < target {
      let now = simulation.now
      let move = pace.nextMove(
        from: now, target: target, nextDue: await simulation.nextDeadline())
      try await simulation.advance(to: max(move, now))
      if move < target { try await pace.waitFrame() }
    }
    try await simulation.advance(to: target)
  }

  private static func perform(
    _ step: ScenarioStep, on simulation: DeviceSession,
    onItem: (@Sendable (TimelineItem) -> Void)?
  ) async -> [StepError] {
    var errors: [StepError] = []
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
    return errors
  }

  private static func check(
    _ step: ScenarioStep, on simulation: DeviceSession,
    onItem: (@Sendable (TimelineItem) -> Void)?
  ) async -> [CheckResult] {
    let context = Expectation.Context(
      events: simulation.log.all, device: try? await simulation.deviceSnapshot(),
      server: await simulation.server.snapshot())
    return step.checks.map { check in
      let (passed, actual) = check.expectation.evaluate(in: context)
      let result = CheckResult(
        step: step.number, at: simulation.now, text: check.text, position: check.position,
        passed: passed, actual: actual, sentence: check.expectation.sentence ?? step.say)
      onItem?(.check(result))
      return result
    }
  }

  /// What the events of a command leave unsaid: edits and refusals are events already.
  static func notable(_ outcome: CommandOutcome) -> String? {
    // A launch is the launched event's to say.
    if case .launched = outcome { return nil }
    return outcome.unsaid
  }
}
