import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import QA

/// `expect: arrived` (#46): decided by the tenant's read-back of a registration of the step's
/// window; RegScope's own limits (no contact key, a tenant that cannot answer, a read-back not
/// yet due) never fail a correct app; a plan that could only time out is refused at start.
@Suite("expect: arrived")
struct QAArrivedTests {
  struct Rig {
    var watch = DeviceWatch(makeToken: { "TOKEN" })
    let payload: RegistrationPayload
    let sent: ServerRegistration

    init(at: Double = 100) throws {
      let body = sdkBody(device: "D", key: "user-1", attributes: ["Plan": "gold"])
      payload = try WireDecoding.payload(from: Data(body.utf8)).get()
      sent = ServerRegistration(
        id: 1, receivedAt: Instant(at), processAt: Instant(at + 300), status: .processed,
        payload: payload)
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "D", payload: payload, body: Array(body.utf8),
          facts: RequestFacts(userAgent: androidAgent), at: Instant(at), status: 201,
          retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })
        ))
    }

    mutating func readBack(_ address: TenantHolding.Address?) {
      watch.recordReadBack(
        ReadBack.compare(
          sent, holding: TenantHolding(contactKey: "user-1", address: address),
          registrations: [sent], askedAt: sent.receivedAt + 900, window: 900, defined: nil),
        of: "D")
    }

    func decide(since: Int = 0) -> QAJudge.Decision? {
      QAJudge.decide(.arrived, device: watch.devices["D"]!, since: since, runStart: 0)
    }
  }

  @Test("held as sent passes; not there fails with the tenant's answer")
  func decided() throws {
    var rig = try Rig()
    #expect(rig.decide() == nil, "no read-back yet")
    rig.readBack(TenantHolding.Address(values: ["Plan": "gold"]))
    #expect(rig.decide()?.verdict == .pass)
    var missing = try Rig()
    missing.readBack(nil)
    let failed = try #require(missing.decide())
    #expect(failed.verdict == .fail)
    #expect(failed.evidence.contains("actual: tenant: #1 NOT ARRIVED under contact user-1"))
    #expect(
      failed.evidence.contains { $0.contains("first") && $0.contains("201") },
      "the registration asked about is evidence too: \(failed.evidence)")
  }

  @Test(
    "undecided: a read-back of an older registration, a newer one due, or one that could not ask")
  func undecided() throws {
    var old = try Rig()
    old.readBack(TenantHolding.Address(values: ["Plan": "gold"]))
    #expect(old.decide(since: 1) == nil, "the read-back is of a registration before the window")
    var due = try Rig()
    due.readBack(nil)
    due.watch.markReadBackDue(Instant(2_000), of: "D")
    #expect(due.decide() == nil, "a newer registration may still land")
    let said = QAJudge.atDeadline(.arrived, device: due.watch.devices["D"]!)
    #expect(said.decision == nil)
    #expect(said.why?.contains("after the step's timeout") == true)
    var anonymous = try Rig()
    anonymous.watch.recordReadBack(
      ReadBack.unanswered(
        anonymous.sent, askedAt: Instant(1_000), window: 900, contactKey: nil,
        problem: ReadBack.noContactKey), of: "D")
    #expect(anonymous.decide() == nil, "RegScope could not ask: no verdict against the app")
    #expect(
      QAJudge.atDeadline(.arrived, device: anonymous.watch.devices["D"]!).why
        == ReadBack.noContactKey)
  }

  @Test("a plan is refused without the tenant asked, or with a timeout before the read-back")
  func refusedAtStart() throws {
    let plan = try QAPlanParser.parse(
      """
      name: arrival
      steps:
        - expect: arrived
          timeout: 10m
      """, source: "test")
    #expect(
      plan.readBackProblem(readBackAfter: nil)?.contains(
        "start with --tenant FILE and --upstream URL")
        == true)
    #expect(
      plan.readBackProblem(readBackAfter: 900)?.contains(
        "times out after 10 min, before the tenant is asked (15 min after the 2xx") == true)
    #expect(plan.readBackProblem(readBackAfter: 60) == nil)
    for name in BuiltInPlans.names {
      #expect(BuiltInPlans.plan(name)?.readBackProblem(readBackAfter: nil) == nil, "\(name)")
    }
  }
}
