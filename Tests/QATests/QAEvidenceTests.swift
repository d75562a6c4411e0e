import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import QA

/// QA evidence a lead can put in a ticket (#42 item 8): what each registration carried, a
/// step stopped by Ctrl-C said as interrupted with what it saw, a plan that knows the app
/// stayed open judging with that knowledge, and the token step decided on a request after the
/// 2xx.
@Suite("QA evidence a lead can use")
struct QAEvidenceTests {
  struct Send {
    var at: Double
    var tags: [String] = ["ALL"]
    var status = 201
    var token = true
  }

  /// A device's registrations as the receiver records them; `agent` picks the SDK.
  static func device(_ sends: [Send], agent: String = iosAgent) -> DeviceWatch.Device {
    var watch = DeviceWatch(makeToken: { "TOKEN" })
    for send in sends {
      let body = sdkBody(
        device: "D", platform: agent == iosAgent ? "iOS" : "Android", tags: send.tags)
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "D", payload: try? WireDecoding.payload(from: Data(body.utf8)).get(),
          body: Array(body.utf8),
          facts: RequestFacts(userAgent: agent, subscriberToken: send.token ? "TOKEN" : nil),
          at: Instant(send.at), status: send.status, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    return watch.devices["D"]!
  }

  @Test("an evidence line says what the registration changed, as the timeline does")
  func changes() throws {
    let device = Self.device([Send(at: 0), Send(at: 100, tags: ["ALL", "qa-a", "qa-b"])])
    let decision = try #require(
      QAJudge.decide(
        .bodyHas(tags: ["qa-a", "qa-b"], attributes: [:]), device: device, since: 1, runStart: 0))
    #expect(decision.verdict == .pass)
    let line = try #require(decision.evidence.first)
    #expect(line.contains("+1 min 40 s  201  + tags qa-a; + tags qa-b"), "\(line)")
    #expect(line.hasSuffix("carrying tag qa-a and tag qa-b"), "\(line)")
  }

  @Test("a Retry-After step's figures add up: 4 min 50 s after a 5 min wait is 10 s too soon")
  func retryAfterFiguresAddUp() throws {
    var watch = DeviceWatch(makeToken: { "TOKEN" })
    let body = sdkBody(device: "D", platform: "iOS")
    for (at, status, retryAfter) in [
      (0.0, 201, nil), (100.0, 429, RetryAfter.Value.delaySeconds(300)), (389.5, 201, nil),
    ] {
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "D", payload: try? WireDecoding.payload(from: Data(body.utf8)).get(),
          body: Array(body.utf8),
          facts: RequestFacts(userAgent: iosAgent, subscriberToken: "TOKEN"),
          at: Instant(at), status: status, retryAfter: retryAfter,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    let device = try #require(watch.devices["D"])
    let decision = try #require(
      QAJudge.decide(.retryAfterRespected, device: device, since: 1, runStart: 0))
    #expect(decision.verdict == .fail)
    let said = decision.evidence.joined(separator: "\n")
    // 289.5 s is shown as 4 min 50 s; "too soon" is worked out from that, not rounded apart
    // (it said 11 s).
    #expect(said.contains("sent 4 min 50 s after that answer, 10 s too soon"), "\(said)")
    #expect(said.contains("at least 5 min after the answer"), "\(said)")
    #expect(said.contains("429  Retry-After 300 s"), "\(said)")
  }

  /// The send 5 s after the one before, which the judge alone notes as a relaunch (iOS).
  static let early = [
    Send(at: 0), Send(at: 100, tags: ["ALL", "qa-start"]),
    Send(at: 105, tags: ["ALL", "qa-a", "qa-b", "qa-start"]),
  ]

  @Test("an early send while the plan kept the app open fails the throttle step, saying why")
  func keptOpen() throws {
    let device = Self.device(Self.early)
    #expect(device.registrations.last?.findings.map(\.code) == [.relaunchSend])
    let both = QAExpectation.bodyHas(tags: ["qa-a", "qa-b"], attributes: [:])
    // Nothing known of the app: a relaunch may explain it, as the receiver says.
    #expect(QAJudge.decide(both, device: device, since: 1, runStart: 0)?.verdict == .pass)
    let open = QAKnowledge(openSpans: [.init(step: 1, start: Instant(90))])
    let decision = try #require(
      QAJudge.decide(both, device: device, since: 1, runStart: 0, knowledge: open))
    #expect(decision.verdict == .fail)
    #expect(
      decision.evidence.contains {
        $0.hasPrefix(
          "actual: the one that carried them was sent early: sent 5 s after the one before, while step 1 had the tester keep the app open"
        )
      }, "\(decision.evidence)")
    #expect(decision.evidence.contains { $0.contains("throttleViolated (violation, R3.2)") })
    #expect(decision.evidence.contains { $0.contains("fix: let the SDK decide when to register") })
    #expect(
      QAJudge.decide(.noViolation, device: device, since: 0, runStart: 0, knowledge: open)?
        .verdict == .fail)
    // Before the ask that kept it open, or after the next ask, the note stands.
    let before = QAKnowledge(openSpans: [.init(step: 3, start: Instant(106))])
    let after = QAKnowledge(openSpans: [.init(step: 1, start: Instant(0), end: Instant(104))])
    for knowledge in [before, after] {
      #expect(
        QAJudge.decide(both, device: device, since: 1, runStart: 0, knowledge: knowledge)?
          .verdict == .pass)
    }
  }

  @Test("the token step is decided by a request after the 2xx: sent back, not sent, not yet")
  func tokenReturned() throws {
    // Fresh: three 503s, the 201 hands the token out, and nothing more (a correct SDK).
    let ladder = [
      Send(at: 0, status: 503, token: false), Send(at: 60, status: 503, token: false),
      Send(at: 120, status: 503, token: false), Send(at: 180, token: false),
    ]
    let quiet = Self.device(ladder, agent: androidAgent)
    #expect(QAJudge.decide(.tokenReturned, device: quiet, since: 4, runStart: 0) == nil)
    // Its time up with nothing sent after the 2xx: nothing could have carried the token.
    let silent = QAJudge.atDeadline(.tokenReturned, device: quiet)
    #expect(silent.decision?.verdict == .pass)
    #expect(silent.decision?.evidence.first?.hasPrefix("owed on no request") == true)
    let returned = Self.device(
      ladder + [Send(at: 240, tags: ["ALL", "qa-token"])], agent: androidAgent)
    #expect(
      QAJudge.decide(.tokenReturned, device: returned, since: 4, runStart: 0)?.verdict == .pass)
    let dropped = Self.device(
      ladder + [Send(at: 240, tags: ["ALL", "qa-token"], token: false)], agent: androidAgent)
    let failed = try #require(
      QAJudge.decide(.tokenReturned, device: dropped, since: 4, runStart: 0))
    #expect(failed.verdict == .fail)
    #expect(failed.evidence.contains { $0.hasSuffix("+ tags qa-token  (no X-Subscriber-Token)") })
    #expect(failed.evidence.contains { $0.hasPrefix("fix: ") })
    #expect(QAJudge.atDeadline(.tokenReturned, device: dropped).decision?.verdict == .fail)
    // No 2xx yet: nothing handed out; the step times out, saying so.
    let down = Self.device([Send(at: 0, status: 503, token: false)], agent: androidAgent)
    #expect(QAJudge.atDeadline(.tokenReturned, device: down).decision == nil)
  }

  static func report(_ verdicts: [QAVerdict]) throws -> QAReport {
    let plan = try #require(BuiltInPlans.plan("first-registration"))
    let results = zip(plan.steps, verdicts).map { step, verdict in
      QAStepResult(
        step: step, verdict: verdict,
        evidence: verdict == .interrupted
          ? ["the run was stopped before this step was decided", "2026-11-25  first  201"] : [],
        deviceID: "QA-IPHONE-1", startedAt: Instant(0), endedAt: Instant(1))
    }
    return QAReport(
      plan: plan, results: results, startedAt: Instant(0), endedAt: Instant(2),
      device: Self.device([Send(at: 0)]))
  }

  @Test(
    "a stopped run: the step running is interrupted with its evidence; JUnit counts it an error")
  func interrupted() throws {
    let report = try Self.report([.pass, .interrupted, .notRun])
    #expect(report.interrupted && !report.passed)
    let markdown = QAReportText.markdown(report)
    #expect(markdown.contains("| 2 | expect: a registration arrives | interrupted |"))
    #expect(markdown.contains("## Step 2: interrupted"))
    #expect(markdown.contains("    2026-11-25  first  201"))
    #expect(markdown.contains("step 2 was interrupted, with what it had seen"))
    #expect(markdown.contains("- Device: `D`\n"))
    let xml = QAReportText.junit(report)
    #expect(xml.contains(#"failures="0" errors="1""#), "\(xml)")
    #expect(xml.contains(#"<error message="interrupted: the run was stopped during this step">"#))
    #expect(xml.contains("2026-11-25  first  201"))
    #expect(xml.contains("<skipped"))
  }

  @Test("the one-line verdict: an ask's full stop does not stand before the '; '")
  func summaryLine() throws {
    let line = QAReportText.summaryLine(
      try Self.report([.interrupted, .notRun, .notRun]), written: ["r.md"])
    #expect(
      line
        == "QA first-registration: stopped, 0 of 3 steps passed; step 1 interrupted: ask: Install and open the app (a fresh install registers at once), and leave it open; report in r.md",
      "\(line)")
  }

  @Test("a device id is a code span without padding when it needs none")
  func deviceCodeSpan() {
    #expect(QAReportText.code("QA-IPHONE-1") == "`QA-IPHONE-1`")
    #expect(QAReportText.code("a`b") == "``a`b``")
    #expect(QAReportText.code("`x") == "`` `x ``")
    #expect(QAReportText.code(" x ") == "`  x  `")
  }

  @Test("app: stays-open is read on an ask, and refused elsewhere with the place")
  func staysOpen() throws {
    let plan = try QAPlanParser.parse(
      "name: p\nsteps:\n  - ask: do it\n    app: stays-open\n    timeout: 1m\n", source: "p.yaml")
    #expect(plan.steps.first?.keepsAppOpen == true)
    for yaml in [
      "name: p\nsteps:\n  - expect: registration\n    app: stays-open\n    timeout: 1m\n",
      "name: p\nsteps:\n  - ask: do it\n    app: sometimes\n    timeout: 1m\n",
    ] {
      let error = QAPlanParserTests.error(yaml)
      #expect(error.hasPrefix("plan.yaml:4:10: app: is said on an ask:"), "\(error)")
    }
  }
}
