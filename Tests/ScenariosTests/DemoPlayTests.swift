import Clocks
import Foundation
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Synchronization
import Testing

/// A demo in the inspector plays the scenario on a virtual clock walked for the eye; its
/// checks must be exactly `regctl run`'s, whatever the pace (DESIGN: a busy machine makes a
/// demo slower, never wrong).
@Suite("demos: walked for the eye, checked as regctl run checks")
struct DemoPlayTests {
  @Test("every built-in passes when walked at a demo's pace, with the same verdicts as a run")
  func builtInsWalked() async throws {
    for entry in BuiltInScenarios.all {
      let scenario = try BuiltInScenarios.scenario(entry)
      let run = try await ScenarioRunner.run(scenario)
      // Fast enough for a test; every frame still moves the clock in small steps and every
      // quiet stretch is fast-forwarded as on screen.
      let pace = DemoPace(rate: 1_000_000, captionHold: 0)
      let session = try await DeviceSession.start(
        scenario.setup, place: try SessionPlace.demo(pace))
      let walked = try await ScenarioRunner.play(scenario, on: session, pace: pace)
      await session.stop()
      #expect(walked.errors.isEmpty, "\(entry.name)")
      let failed = walked.checks.filter { !$0.passed }.map(\.actual)
      #expect(failed.isEmpty, "\(entry.name): \(failed)")
      #expect(walked.checks.map(\.passed) == run.checks.map(\.passed), "\(entry.name)")
      #expect(walked.checks.map(\.actual) == run.checks.map(\.actual), "\(entry.name)")
    }
  }

  @Test("after a demo ends, n moves its clock on to what is still due: the server processes")
  func onAfterTheEnd() async throws {
    let scenario = try BuiltInScenarios.scenario(
      try #require(BuiltInScenarios.named("throttle-coalesces")))
    let pace = DemoPace(rate: 1_000_000, captionHold: 0)
    let session = try await DeviceSession.start(scenario.setup, place: try SessionPlace.demo(pace))
    _ = try await ScenarioRunner.play(scenario, on: session, pace: pace)
    pace.finish()
    let before = try #require(await session.snapshot().server?.stats)
    #expect(before.pending == 2, "the demo ends with its registrations waiting (S2)")
    var jumps = 0
    while await session.snapshot().server?.stats.pending ?? 0 > 0, jumps < 5 {
      let ended = session.now
      let jumped = try #require(await session.jumpToNextDeadline())
      #expect(jumped > ended && session.now == jumped, "n said it jumped, and the clock moved")
      jumps += 1
    }
    let after = try #require(await session.snapshot().server?.stats)
    #expect(after.pending == 0 && after.distinctContacts == 1)
    await session.stop()
  }

  @Test("a failed nextSend check says a time since the start, never raw seconds")
  func instantsAsTimes() async throws {
    let yaml = """
      name: t
      description: d
      config: { delayRegistrationUntilContactKeyIsSet: false }
      steps:
        - { at: 0s, do: ["server fail 503 times 1", launch] }
        - { at: 0s, expect: "nextSend == 5m" }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "t.yaml"))
    let actual = try #require(report.failures.first?.actual)
    #expect(actual == "nextSend = 0:01:00")
  }

  @Test("every built-in is narrated from its first step to its last, which says what it showed")
  func narrated() throws {
    for entry in BuiltInScenarios.all {
      let scenario = try BuiltInScenarios.scenario(entry)
      #expect(scenario.steps.first?.say != nil, "\(entry.name): the first step has no caption")
      #expect(scenario.steps.last?.say != nil, "\(entry.name): no closing caption")
      let silent = scenario.steps.filter { $0.say == nil }.map(\.number)
      #expect(silent.isEmpty, "\(entry.name): steps \(silent) have no caption")
    }
  }
}
