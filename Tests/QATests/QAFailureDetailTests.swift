import EngagementCore
import Foundation
import QA
import RegistrationCore
import TestSupport
import Testing

/// A failed QA step says what a lead needs for a ticket; "carries both tags" means one
/// registration carries both (R3.3).
@Suite("QA failures a lead can act on")
struct QAFailureDetailTests {
  static func device(_ bodies: [(Double, [String], Int)]) -> DeviceWatch.Device {
    var watch = DeviceWatch(makeToken: { "t" })
    for (at, tags, status) in bodies {
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "D",
          payload: try? WireDecoding.payload(
            from: Data(sdkBody(device: "D", tags: tags).utf8)
          ).get(),
          body: Array(sdkBody(device: "D", tags: tags).utf8),
          facts: RequestFacts(userAgent: androidAgent), at: Instant(at), status: status,
          retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    return watch.devices["D"]!
  }

  @Test("qa-a and qa-b in two registrations 5 s apart fail; in one registration they pass")
  func bothTags() throws {
    let expectation = QAExpectation.bodyHas(tags: ["qa-a", "qa-b"], attributes: [:])
    let split = Self.device([
      (0, ["ALL"], 201), (100, ["ALL", "qa-a"], 201), (105, ["ALL", "qa-a", "qa-b"], 201),
    ])
    let failed = try #require(QAJudge.decide(expectation, device: split, since: 1, runStart: 1))
    #expect(failed.verdict == .fail)
    #expect(failed.evidence.first == "expected: one registration carrying tag qa-a and tag qa-b")
    #expect(failed.evidence.contains("actual: the first to carry any carried only tag qa-a"))
    let together = Self.device([(0, ["ALL"], 201), (100, ["ALL", "qa-a", "qa-b"], 201)])
    #expect(QAJudge.decide(expectation, device: together, since: 1, runStart: 1)?.verdict == .pass)
    // Nothing carrying them yet: undecided.
    let none = Self.device([(0, ["ALL"], 201)])
    #expect(QAJudge.decide(expectation, device: none, since: 1, runStart: 1) == nil)
  }

  @Test("a failed no-violation step gives expected, actual, the registrations, messages and fixes")
  func violationDetail() throws {
    let hammered = Self.device([(0, ["ALL"], 201), (5, ["ALL"], 201)])
    let decision = try #require(
      QAJudge.decide(.noViolation, device: hammered, since: 0, runStart: 0))
    #expect(decision.verdict == .fail)
    #expect(decision.evidence.contains { $0.hasPrefix("expected: no registration of the run") })
    #expect(decision.evidence.contains { $0.hasPrefix("actual: 1 with a violation") })
    #expect(decision.evidence.contains { $0.contains("throttleViolated (violation, R3.2):") })
    #expect(decision.evidence.contains { $0.contains("fix: let the SDK decide when to register") })
  }

  @Test("--allow lets a code pass a no-violation step; --fail-on warning fails on a warning")
  func gate() throws {
    let hammered = Self.device([(0, ["ALL"], 201), (5, ["ALL"], 201)])
    let allowed = FindingGate(allowed: [.throttleViolated, .unchangedResent])
    #expect(
      QAJudge.decide(.noViolation, device: hammered, since: 0, runStart: 0, gate: allowed)?
        .verdict == .pass)
    #expect(
      FindingGate.parse(failOn: "warning", allow: ["contactKeyChanged"]).map(\.allowed)
        == .success([.contactKeyChanged]))
  }

  @Test("report file names: a readable UTC time, and a plan name that can never be a path")
  func fileName() throws {
    var plan = try #require(BuiltInPlans.plan("throttle"))
    plan.name = "quick/../../x"
    let report = QAReport(
      plan: plan, results: [], startedAt: Instant(1_795_600_061.46),
      endedAt: Instant(1_795_600_062),
      device: nil)
    let name = QAReportText.fileName(report)
    #expect(!name.contains("/") && !name.contains(".."))
    #expect(name.hasSuffix("Z.md") && name.contains("20261125T094741Z"))
  }

  @Test("a refused request is no registration: the step waits for one the server took")
  func refusedIsNoRegistration() throws {
    var watch = DeviceWatch(makeToken: { "t" })
    let body = sdkBody(device: "D")
    _ = watch.recordRefusal(
      Refusal(
        kind: .unauthorized, status: 401, reason: "wrong token",
        payload: try WireDecoding.payload(from: Data(body.utf8)).get()),
      facts: RequestFacts(userAgent: androidAgent), at: Instant(1))
    let refusedOnly = try #require(watch.devices["D"])
    #expect(QAJudge.decide(.registration, device: refusedOnly, since: 0, runStart: 0) == nil)
    _ = watch.record(
      ReceivedRegistration(
        deviceID: "D", payload: try WireDecoding.payload(from: Data(body.utf8)).get(),
        body: Array(body.utf8), facts: RequestFacts(userAgent: androidAgent), at: Instant(5),
        status: 201, retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    let accepted = try #require(watch.devices["D"])
    #expect(
      QAJudge.decide(.registration, device: accepted, since: 0, runStart: 0)?.verdict == .pass)
    // The first accepted registration after a refusal reads as the first.
    #expect(accepted.registrations.last?.interval == nil)
  }

  @Test("a device id is a code span in the Markdown report: no markup, no link")
  func markdownDeviceID() throws {
    var watch = DeviceWatch(makeToken: { "t" })
    let id = "<script>[x](http://e)`"
    let body = sdkBody(device: "X").replacingOccurrences(
      of: #""deviceID":"X""#, with: #""deviceID":"<script>[x](http://e)`""#)
    _ = watch.record(
      ReceivedRegistration(
        deviceID: id, payload: try WireDecoding.payload(from: Data(body.utf8)).get(),
        body: Array(body.utf8), facts: RequestFacts(userAgent: androidAgent), at: Instant(5),
        status: 201, retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    let plan = try #require(BuiltInPlans.plan("first-registration"))
    let report = QAReport(
      plan: plan, results: [], startedAt: Instant(0), endedAt: Instant(1), device: watch.devices[id]
    )
    #expect(QAReportText.markdown(report).contains("- Device: `` <script>[x](http://e)` ``"))
  }
}

@Suite("plan faults said once, in decimal")
struct QAFaultOptionTests {
  @Test(
    "a repeated option or a hex number is refused with the place",
    arguments: ["503 x3 x5", "429 retry-after 0x10", "503 times 2 times 3"])
  func refused(_ fault: String) {
    let yaml = "name: f\nsteps:\n  - fault: \"\(fault)\"\n"
    #expect(throws: (any Error).self) { _ = try QAPlanParser.parse(yaml, source: "f.yaml") }
  }

  @Test("each option once, in decimal, is taken")
  func taken() throws {
    let plan = try QAPlanParser.parse(
      "name: f\nsteps:\n  - fault: \"429 x2 retry-after 120 for 5m\"\n", source: "f.yaml")
    guard case .fault(let fault) = plan.steps.first?.action,
      case .status(429, let times, let retryAfter, let duration) = fault.kind
    else {
      Issue.record("not a status fault")
      return
    }
    #expect(times == 2 && retryAfter == 120 && duration == 300)
  }
}

@Suite("the QA report's timeline")
struct QAReportTimelineTests {
  @Test("each registration in the timeline comes with its findings' messages and fixes")
  func fixes() throws {
    let hammered = QAFailureDetailTests.device([(0, ["ALL"], 201), (5, ["ALL"], 201)])
    let plan = try #require(BuiltInPlans.plan("first-registration"))
    let report = QAReport(
      plan: plan, results: [], startedAt: Instant(0), endedAt: Instant(6), device: hammered)
    let markdown = QAReportText.markdown(report)
    #expect(markdown.contains("throttleViolated (violation, R3.2): sent 5 s after"))
    #expect(markdown.contains("fix: let the SDK decide when to register"))
  }
}
