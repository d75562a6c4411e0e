import Clocks
import EngagementCore
import EngagementHTTP
import EngagementServer
import Foundation
import QA
import RegistrationCore
import RegistrationEngine
import SessionHTTP
import Synchronization
import TestSupport
import Testing

/// Every built-in QA plan passes on every correct SDK, and fails a broken one at the step it
/// breaks (#42 item 1): RegScope's profile engines as the app under test, installed while the
/// plan runs, over loopback HTTP, in virtual time. A plan that fails a correct profile is a
/// wrong plan or a wrong judge: every SDK wait is a minimum, and a later send is never a sign
/// of a broken SDK (SDK-FACTS, "Throttle and retry").
@Suite("QA plans, run on the SDK profiles as the app under test", .timeLimit(.minutes(10)))
struct QAPlanRunTests {
  /// The documented contract and the shipped SDKs at each major read.
  static let profiles = [
    "documented", "ios@8.1.4", "ios@9.0.3", "ios", "android@8.2.1", "android@9.0.3", "android",
  ]

  @Test(
    "every built-in plan passes on every correct SDK, from a fresh install, however long the tester takes",
    arguments: profiles)
  func correctSDKsPass(spelled: String) async throws {
    let profile = try #require(SDKProfile(loose: spelled))
    for name in BuiltInPlans.names {
      // A tester who goes on at once, and one who takes a minute and a half after acting:
      // what the app sends while the tester acts counts either way.
      for dawdle in [2.0, 90] {
        let plan = try #require(BuiltInPlans.plan(name))
        let report = try await AppUnderTest.run(plan, profile: profile, dawdle: dawdle)
        for result in report.results where result.verdict != .pass {
          Issue.record(
            "\(spelled) \(name) (tester waits \(Int(dawdle)) s), step \(result.step.number) \(result.step.summary): \(result.verdict.rawValue)\n  \(result.evidence.joined(separator: "\n  "))"
          )
        }
        #expect(
          report.passed && report.device?.deviceID == "QA-DEVICE",
          "\(spelled) \(name): the timeline\n\((report.device?.registrations ?? []).map { QAJudge.line($0) }.joined(separator: "\n"))"
        )
      }
    }
  }

  @Test(
    "the plans a script runs with --yes pass an app that is only installed: after the 201 it rightly sends nothing more",
    arguments: profiles)
  func installedOnly(spelled: String) async throws {
    let profile = try #require(SDKProfile(loose: spelled))
    for name in ["first-registration", "retry-ladder", "retry-after"] {
      let plan = try #require(BuiltInPlans.plan(name))
      let report = try await AppUnderTest.run(
        plan, profile: profile, dawdle: 2, followsAsks: false)
      for result in report.results where result.verdict != .pass {
        Issue.record(
          "\(spelled) \(name), step \(result.step.number) \(result.step.summary): \(result.verdict.rawValue)\n  \(result.evidence.joined(separator: "\n  "))"
        )
      }
      #expect(report.passed, "\(spelled) \(name)")
    }
  }

  @Test(
    "each built-in plan fails a broken app at the step it breaks, with the fix",
    arguments: [
      ("first-registration", Mutation.earlySend, "expect: no violation", "let the SDK decide"),
      (
        "throttle", .earlySend, "expect: a registration carries tag qa-a, tag qa-b",
        "let the SDK decide"
      ),
      (
        "retry-ladder", .retriesAtOnce, "expect: the retries keep to the SDK's minimum",
        "retry only through the SDK"
      ),
      (
        "retry-ladder", .dropsToken, "expect: the subscriber token is sent back",
        "it keeps the X-Subscriber-Token"
      ),
      (
        "retry-after", .ignoresRetryAfter, "expect: the next send is not before Retry-After",
        "waits for the server's Retry-After"
      ),
      ("contact-key-change", .earlySend, "expect: no violation", "let the SDK decide"),
      (
        "sdk-upgrade", .losesTags,
        "expect: the SDK is upgraded, and the record keeps its tags and attributes",
        "sdkUpgradeLostData"
      ),
      (
        "release-check", .ignoresRetryAfter, "expect: the next send is not before Retry-After",
        "waits for the server's Retry-After"
      ),
    ])
  func brokenAppsFail(plan name: String, mutation: Mutation, step: String, fix: String)
    async throws
  {
    for spelled in ["ios", "android"] {
      let profile = try #require(SDKProfile(loose: spelled))
      let plan = try #require(BuiltInPlans.plan(name))
      let report = try await AppUnderTest.run(
        plan, profile: profile, mutation: mutation, dawdle: 2)
      let first = try #require(
        report.results.first { $0.verdict != .pass }, "\(spelled) \(name) \(mutation) passed")
      #expect(
        first.step.summary == step && first.verdict == .fail,
        "\(spelled) \(name) \(mutation): step \(first.step.number) \(first.step.summary) \(first.verdict.rawValue)\n  \(first.evidence.joined(separator: "\n  "))"
      )
      #expect(
        first.evidence.contains { $0.contains("fix:") || $0.contains("Fix:") }
          && first.evidence.contains { $0.contains(fix) },
        "\(spelled) \(name) \(mutation): \(first.evidence.joined(separator: "\n  "))")
    }
  }

  @Test("stopped while a step waits: that step is interrupted with what it saw, the rest not run")
  func interruptedRun() async throws {
    let rig = try await QARig()
    // The tester takes 70 s: the change goes out during the ask.
    let app = try AppUnderTest(rig: rig, profile: .android, dawdle: 70)
    let plan = try QAPlanParser.parse(
      """
      name: stopped
      steps:
        - ask: Add the tag qa-a.
          timeout: 1m
        - expect: body-has
          tags: [qa-never]
          timeout: 10m
        - fault: up
      """, source: "stopped.yaml")
    let runner = QARunner(server: rig.server, ask: { _, text in await app.act(text) })
    let run = Task { await runner.run(plan) }
    // The runner rests on step 2 (nothing else waits on the watch here), then Ctrl-C.
    while rig.server.changes.signal(.watched).waiting == 0 { await Task.yield() }
    run.cancel()
    let report = await run.value
    #expect(report.results.map(\.verdict) == [.pass, .interrupted, .notRun])
    let evidence = report.results[1].evidence
    #expect(evidence.first == "the run was stopped before this step was decided")
    #expect(evidence.contains { $0.contains("201  + tags qa-a") }, "\(evidence)")
    #expect(report.interrupted)
    await app.shutDown()
    await rig.stop()
  }

  @Test("stopped between two steps: the next is the interrupted one, so JUnit has its error")
  func stoppedBetweenSteps() async throws {
    let rig = try await QARig()
    let plan = try #require(BuiltInPlans.plan("retry-after"))
    // Cancelled before it starts: the stop comes before step 1 began.
    let run = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await QARunner(server: rig.server, ask: { _, _ in }).run(plan)
    }
    let report = await run.value
    #expect(report.results.map(\.verdict) == [.interrupted, .notRun, .notRun, .notRun])
    #expect(QAReportText.junit(report).contains(#"failures="0" errors="1""#))
    await rig.stop()
  }
}
