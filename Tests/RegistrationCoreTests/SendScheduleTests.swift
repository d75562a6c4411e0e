import RegistrationCore
import Testing

@Suite("R3 when a registration is sent")
struct SendScheduleTests {
  @Test("R3.1 the initial registration is sent at once on first launch")
  func initialAtOnce() {
    var h = CoreHarness()
    #expect(h.machine.nextDeadline == .zero)
    h.advance(to: 0)
    #expect(h.sendTimes == [0])
    #expect(h.sends.first?.reason == .initial)
    #expect(h.machine.plan == .idle)
  }

  @Test(
    "R3.2 a change goes out 60 s after the first change: not at 59.999, at 60, not again at 60.001",
    arguments: [10.0, 75.5, 3600])
  func changeWindowBoundaries(changeAt: Double) {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.addTag("sports"), at: changeAt)
    h.advance(to: changeAt + 59.999)
    #expect(h.sentCount == 1)
    h.advance(to: changeAt + 60)
    #expect(h.sentCount == 2)
    #expect(h.sendTimes.last == changeAt + 60)
    h.advance(to: changeAt + 60.001)
    #expect(h.sentCount == 2)
  }

  @Test("R3.2 never sooner than 60 s after the previous send")
  func throttleAfterPreviousSend() {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.addTag("a"), at: 10)
    h.advance(to: 70)
    #expect(h.sendTimes == [0, 70])
    // A change right after a send waits the full window from that send.
    h.edit(.addTag("b"), at: 70)
    h.advance(to: 129.999)
    #expect(h.sentCount == 2)
    h.advance(to: 130)
    #expect(h.sendTimes == [0, 70, 130])
  }

  @Test(
    "R3.2 every kind of device field change schedules a registration",
    arguments: [
      (SystemField.timezone, "3600"), (.dst, "true"), (.locale, "fr_FR"), (.language, "fr"),
      (.appVersion, "2.0"), (.osVersion, "18.0"), (.sdkVersion, "9.0.0"), (.deviceToken, "abc123"),
      (.pushEnabled, "false"), (.locationEnabled, "true"), (.proximityEnabled, "true"),
      (.badge, "4"),
    ])
  func deviceFieldChanges(field: SystemField, value: String) {
    var h = CoreHarness.launchedAndRegistered()
    #expect(h.edit(.setSystem(field, value), at: 5).isApplied)
    #expect(h.machine.nextDeadline == Instant(65))
  }

  @Test("R3.2 a device field that changed since the last launch is a change at launch")
  func changedAtLaunch() {
    var h = CoreHarness.launchedAndRegistered()
    var env = h.machine.state.record.device.environment
    env.platformVersion = "18.1"
    env.timeZone = -14400
    let (relaunched, step) = RegistrationMachine.relaunch(
      settings: h.machine.settings, state: h.machine.state, environment: env, now: Instant(500))
    let edited = step.events.compactMap {
      if case .edited(let c) = $0 { c.target.name } else { nil }
    }
    #expect(Set(edited) == ["platform_Version", "timeZone"])
    #expect(relaunched.nextDeadline == Instant(560))
    // The same environment again is no change.
    let (again, quiet) = RegistrationMachine.relaunch(
      settings: h.machine.settings, state: h.machine.state,
      environment: h.machine.state.record
        .device.environment, now: Instant(500))
    #expect(!quiet.events.contains { $0.type == "edited" })
    #expect(again.nextDeadline == nil)
    h.machine = relaunched
  }

  @Test("R3.3 changes in one window travel in one registration holding the whole record")
  func coalescing() {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.addTag("sports"), at: 10)
    h.edit(.setAttribute(key: "CODE", value: "FREE99"), at: 20)
    h.edit(.setAttribute(key: "CODE", value: "FREE100"), at: 30)
    #expect(h.machine.state.pending.count == 2)
    h.advance(to: 120)
    #expect(h.sendTimes == [0, 70])
    let payload = h.lastPayload
    #expect(payload?.tags?.contains("sports") == true)
    #expect(payload?.attributes == [.init(key: "CODE", value: "FREE100")])
    #expect(payload?.deviceID == CoreHarness.deviceID)
    #expect(payload?.platform == "iOS")
    #expect(h.machine.state.pending.isEmpty)
  }

  @Test("R3.3 an edit made while a send is in flight goes out in the next one")
  func editDuringFlight() throws {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.addTag("first"), at: 10)
    h.advance(to: 69)
    h.now = Instant(70)
    let started = h.startDueSend()
    let send = try #require(started)
    h.now = Instant(71)
    h.edit(.addTag("second"))
    h.edit(.addTag("first"))  // already there: no change
    h.now = Instant(72)
    h.finish(send, with: .answered(status: 201, retryAfter: nil))
    #expect(send.payload.tags?.contains("second") == false)
    #expect(h.machine.state.pending.map(\.target) == [ChangeTarget(.tag, "second")])
    // The window restarts from the success at 72 (R4.4).
    #expect(h.machine.nextDeadline == Instant(132))
    h.advance(to: 132)
    #expect(h.lastPayload?.tags?.contains("second") == true)
  }

  @Test("R3.3 an entry edited again while in flight stays pending with its newest value")
  func reEditDuringFlight() throws {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.setAttribute(key: "CODE", value: "A"), at: 10)
    h.now = Instant(70)
    let started = h.startDueSend()
    let send = try #require(started)
    h.edit(.setAttribute(key: "CODE", value: "B"))
    h.finish(send, with: .answered(status: 201, retryAfter: nil))
    #expect(h.machine.state.pending.map(\.summary) == ["CODE = \"B\""])
  }

  @Test("R3.4 a record identical to the last acknowledged one is not sent")
  func identicalSkipped() {
    var h = CoreHarness.launchedAndRegistered()
    h.edit(.addTag("sports"), at: 10)
    h.edit(.removeTag("sports"), at: 20)
    h.advance(to: 200)
    #expect(h.sentCount == 1)
    #expect(h.events.contains { $0.event.type == "sendSkipped" && $0.at == Instant(70) })
    #expect(h.machine.state.pending.isEmpty)
    #expect(h.machine.plan == .idle)
  }

  @Test("R3.5 delay mode: nothing is sent until a contact key is set; edits wait and go with it")
  func delayUntilContactKey() {
    var h = CoreHarness(settings: CoreHarness.settings(delay: true))
    #expect(h.machine.plan == .delayedForContactKey)
    #expect(h.events.contains { $0.event.type == "delayed" })
    h.edit(.addTag("early"), at: 100)
    h.edit(.setAttribute(key: "CODE", value: "X"), at: 200)
    h.advance(to: 10_000)
    #expect(h.sends.isEmpty)
    h.edit(.setContactKey("user-42"), at: 10_000)
    h.advance(to: 10_000)
    #expect(h.sendTimes == [10_000])
    #expect(h.sends.first?.reason == .initial)
    let payload = h.lastPayload
    #expect(payload?.subscriberKey == "user-42")
    #expect(payload?.tags?.contains("early") == true)
    #expect(payload?.attributes == [.init(key: "CODE", value: "X")])
  }

  @Test("R3.5 with the delay off, a registration without a key goes out at once")
  func noDelayAnonymous() {
    var h = CoreHarness(settings: CoreHarness.settings(delay: false))
    h.advance(to: 0)
    #expect(h.sentCount == 1)
    #expect(h.lastPayload?.subscriberKey == nil)
  }

  @Test("R6.3 a record lacking a required field is not sent, and the warning names it")
  func missingRequired() {
    var h = CoreHarness(settings: CoreHarness.settings(token: false))
    h.advance(to: 1000)
    #expect(h.sends.isEmpty)
    #expect(h.machine.plan == .blocked(missing: ["access token"]))
    #expect(h.warningCodes == [.missingRequired])
    let message = h.events.compactMap {
      if case .warning(let w) = $0.event { w.message } else { nil }
    }
    #expect(message.first?.contains("access token") == true)
  }
}
