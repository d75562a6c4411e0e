import Fleet
import InspectorUI
import RegistrationCore
import Session
import SessionValues
import Testing

@Suite("the Fleet view")
struct FleetViewTests {
  @Test("F computes the fleet once, opens and closes the view; it plays the run over a minute")
  func plays() async throws {
    var model = InspectorModel(width: 120, height: 40, title: "t")
    #expect(Inspector.update(&model, .key(.character("F"))) == [.runFleet])
    let outage = FleetPlan.Outage(start: 5 * 86_400, duration: 6 * 3600, kind: .status(503))
    let plans = FleetShow.defaultPlans(outage: outage).map {
      var plan = $0
      plan.devices = 2_000
      return plan
    }
    var reports: [FleetReport] = []
    for plan in plans { reports.append(await FleetRun.run(plan)) }
    _ = Inspector.update(
      &model, .fleetReady(FleetShow(plan: plans[0], reports: reports, startedAt: Instant(100))))
    _ = Inspector.update(&model, .clock(now: Instant(130)))
    let text = Inspector.view(model).text
    #expect(text.contains("anonymous-only · day 16 of 30"))
    #expect(text.contains("known-only · day 16 of 30") && text.contains("both · day 16 of 30"))
    #expect(text.contains("At the end of the run (2000 devices)"))
    #expect(text.contains("orphaned: unreachable, still billed"))
    #expect(text.contains("\(reports[2].orphanedContacts)"))
    #expect(model.countdownTarget != nil)
    // The run has played out after the minute: no more wakes for it.
    _ = Inspector.update(&model, .clock(now: Instant(161)))
    #expect(model.countdownTarget == nil)
    // F again closes it, and opening it again needs no new run.
    #expect(Inspector.update(&model, .key(.character("F"))).isEmpty)
    #expect(!Inspector.view(model).text.contains("At the end of the run"))
    #expect(Inspector.update(&model, .key(.character("F"))).isEmpty)
    #expect(Inspector.view(model).text.contains("At the end of the run"))
  }
}
