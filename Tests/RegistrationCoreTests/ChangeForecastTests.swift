import RegistrationCore
import Testing

/// The Throttle pane's "a change now waits N s" is the machine's own schedule, run on a copy
/// (R3.2, R4.4, SDK-FACTS): checked against the send the real edit then makes.
@Suite("the change forecast: the hint is the schedule")
struct ChangeForecastTests {
  /// Seconds a change made `elapsed` s after the initial send (at 0, answered 201 at once)
  /// waits, per profile: the documented window always runs 60 s from the change; iOS pauses
  /// a second but keeps one send per 60 s interval; Android pauses a second and, inside its
  /// throttle, answers itself 429 and retries 60 s later.
  static let cases: [(SDKProfile, Double, Double)] = [
    (.documented, 0, 60), (.documented, 59.999, 60), (.documented, 60, 60),
    (.documented, 60.001, 60),
    (.ios, 0, 60), (.ios, 59.999, 1), (.ios, 60, 1), (.ios, 60.001, 1),
    (.android, 0, 61), (.android, 59.999, 1), (.android, 60, 1), (.android, 60.001, 1),
  ]

  @Test(
    "the forecast at 0, 59.999, 60 and 60.001 s after a send is when the edit then goes",
    arguments: cases.indices)
  func forecastIsTheSchedule(_ index: Int) throws {
    let (profile, elapsed, expectedWait) = Self.cases[index]
    var harness = CoreHarness.launchedAndRegistered(
      settings: CoreHarness.settings(
        platform: profile.name == .android ? .android : .iOS, profile: profile))
    harness.advance(to: elapsed)
    let forecast = try #require(harness.machine.changeWouldLeave(madeAt: harness.now))
    #expect(abs((forecast - harness.now) - expectedWait) < 1e-6, "\(profile.name) at \(elapsed) s")
    // The real edit, made now, leaves exactly then: not a moment before, and at that instant.
    let sendsBefore = harness.sends.count
    harness.edit(.addTag("sports"))
    harness.advance(to: forecast - 0.0005)
    #expect(harness.sends.count == sendsBefore, "\(profile.name) at \(elapsed) s: sent early")
    harness.advance(to: forecast)
    #expect(harness.sends.count == sendsBefore + 1, "\(profile.name) at \(elapsed) s: not sent")
    #expect(harness.sends.last?.startedAt == forecast)
  }

  @Test("nothing is forecast while the app waits for a contact key (R3.5)")
  func delayed() {
    let harness = CoreHarness(settings: CoreHarness.settings(delay: true))
    #expect(harness.machine.changeWouldLeave(madeAt: .zero) == nil)
  }

  @Test("the forecast changes nothing in the machine it asks")
  func pure() {
    let harness = CoreHarness.launchedAndRegistered()
    _ = harness.machine.changeWouldLeave(madeAt: Instant(20))
    #expect(harness.machine.state.pending.isEmpty)
    #expect(harness.machine.plan == .idle)
  }
}
