import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import QA

/// "Did it arrive?" in a QA report (#46): each read-back of the run as evidence in Markdown and
/// JSON, the one still due when the run ended said with what to do; a run without the tenant
/// has no such section. Evidence only: the verdict stays the steps'.
@Suite("the tenant's read-back in the QA report")
struct QATenantEvidenceTests {
  static func report(readBack: Bool, due: Double?) throws -> QAReport {
    var watch = DeviceWatch(makeToken: { "TOKEN" })
    let body = sdkBody(device: "D", key: "user-1", attributes: ["Plan": "gold"])
    let payload = try WireDecoding.payload(from: Data(body.utf8)).get()
    _ = watch.record(
      ReceivedRegistration(
        deviceID: "D", payload: payload, body: Array(body.utf8),
        facts: RequestFacts(userAgent: androidAgent), at: Instant(0), status: 201,
        retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    if readBack {
      let sent = ServerRegistration(
        id: 1, receivedAt: Instant(0), processAt: Instant(300), status: .processed,
        payload: payload)
      watch.recordReadBack(
        ReadBack.compare(
          sent, holding: TenantHolding(contactKey: "user-1", address: nil),
          registrations: [sent], askedAt: Instant(900), window: 900, defined: ["FirstName"]),
        of: "D")
    }
    if let due { watch.markReadBackDue(Instant(due), of: "D") }
    let plan = try #require(BuiltInPlans.plan("first-registration"))
    let results = plan.steps.map {
      QAStepResult(
        step: $0, verdict: .pass, evidence: [], deviceID: "D", startedAt: Instant(0),
        endedAt: Instant(1))
    }
    return QAReport(
      plan: plan, results: results, startedAt: Instant(0), endedAt: Instant(1_000),
      device: watch.devices["D"])
  }

  @Test("the read-back as evidence; the run still passes on its steps")
  func evidence() throws {
    let report = try Self.report(readBack: true, due: 1_900)
    #expect(report.passed)
    let markdown = QAReportText.markdown(report)
    #expect(markdown.contains("## The tenant: did it arrive?"))
    #expect(
      markdown.contains(
        "NOT ARRIVED: contact user-1 holds no push address for this device; processing rejects the whole registration for Plan"
      ), "\(markdown)")
    #expect(markdown.contains("the next read-back was due at 1970-01-01 00:31:40"), "\(markdown)")
    let json = QAReportText.json(report)
    #expect(json.contains(#""readBacks":[{"#) && json.contains(#""addressFound":false"#), "\(json)")
    #expect(json.contains(#""readBackDue":1900"#))
  }

  @Test("a run stopped by Ctrl-C says the read-back came after the stop, not after the end")
  func stopped() throws {
    var report = try Self.report(readBack: false, due: 1_900)
    report.results[report.results.count - 1].verdict = .interrupted
    let markdown = QAReportText.markdown(report)
    #expect(markdown.contains("; the run was stopped first"), "\(markdown)")
    #expect(!markdown.contains("--read-back-after asks sooner"))
  }

  @Test("without the tenant the report has no such section")
  func absent() throws {
    let report = try Self.report(readBack: false, due: nil)
    #expect(!QAReportText.markdown(report).contains("did it arrive?"))
    #expect(!QAReportText.json(report).contains("readBacks"))
  }
}
