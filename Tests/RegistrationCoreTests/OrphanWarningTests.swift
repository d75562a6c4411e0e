import RegistrationCore
import Testing

@Suite("R8 orphaned contacts, warned about on the device")
struct OrphanWarningTests {
  @Test("R8.2 anonymous then known: setting the first key after an anonymous registration warns")
  func anonymousThenKnown() {
    var h = CoreHarness.launchedAndRegistered(settings: CoreHarness.settings(delay: false))
    let outcome = h.edit(.setContactKey("user.a@example.com"), at: 30)
    #expect(outcome.warnings.map(\.rule) == ["R8.2"])
    #expect(outcome.warnings.first?.code == .orphanRisk)
  }

  @Test("R8.2 no warning when nothing went out without a key (delay mode)")
  func delayModeNoOrphan() {
    var h = CoreHarness(settings: CoreHarness.settings(delay: true))
    h.advance(to: 10)
    #expect(h.edit(.setContactKey("user.a@example.com")).warnings.isEmpty)
  }

  @Test("R8.2 no warning when the anonymous registration never succeeded")
  func failedAnonymousNoOrphan() {
    var h = CoreHarness()
    h.respond = { _ in .transportFailed("down") }
    h.advance(to: 0)
    #expect(h.edit(.setContactKey("user.a@example.com")).warnings.isEmpty)
  }

  @Test("R8.3 shared device: every change of contact key warns")
  func sharedDevice() {
    var h = CoreHarness(settings: CoreHarness.settings(delay: true))
    h.edit(.setContactKey("user.a@example.com"))
    h.advance(to: 0)
    let first = h.edit(.setContactKey("user.b@example.com"), at: 100)
    #expect(first.warnings.map(\.rule) == ["R8.3"])
    #expect(first.warnings.first?.message.contains("user.a@example.com") == true)
    let second = h.edit(.setContactKey("user.a@example.com"), at: 200)
    #expect(second.warnings.map(\.rule) == ["R8.3"])
  }

  @Test("R8.3 a key the server never acknowledged orphans nothing when it changes")
  func unacknowledgedKey() {
    var h = CoreHarness(settings: CoreHarness.settings(delay: true))
    h.respond = { _ in .answered(status: 503, retryAfter: nil) }
    h.edit(.setContactKey("user.a@example.com"))
    h.advance(to: 0)
    #expect(h.machine.state.lastAcknowledged == nil)
    #expect(h.edit(.setContactKey("user.b@example.com"), at: 30).warnings.isEmpty)
    // Once B is taken, a change from B warns, naming B.
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 400)
    let next = h.edit(.setContactKey("user.c@example.com"), at: 500)
    #expect(next.warnings.map(\.rule) == ["R8.3"])
    #expect(next.warnings.first?.message.contains("\"user.b@example.com\" is orphaned") == true)
  }

  @Test("preview tells the warnings without applying anything")
  func previewDoesNotApply() {
    let h = CoreHarness.launchedAndRegistered()
    let outcome = h.machine.preview(.setContactKey("test"), now: Instant(5))
    #expect(outcome.warnings.map(\.code).contains(.genericContactKey))
    #expect(h.machine.state.record.contactKey == nil)
  }
}

@Suite("R8.4 contact-key strategies, as the device sees them")
struct ContactKeyStrategyTests {
  /// Launch, register, log a user in at 10 min, another user at 20 min; count orphan warnings.
  func orphanWarnings(setKeys: Bool, delay: Bool) -> (sent: Int, orphanRisks: Int, anonymous: Int) {
    var h = CoreHarness(settings: CoreHarness.settings(delay: delay))
    h.advance(to: 0)
    if setKeys {
      h.edit(.setContactKey("user.a@example.com"), at: 600)
      h.advance(to: 700)
      h.edit(.setContactKey("user.b@example.com"), at: 1200)
    }
    h.advance(to: 3600)
    let anonymous = h.sends.filter { $0.payload.subscriberKey == nil }.count
    return (h.sentCount, h.warningCodes.filter { $0 == .orphanRisk }.count, anonymous)
  }

  @Test("anonymous users only (no key, no delay): registered at once, never warned")
  func anonymousOnly() {
    let result = orphanWarnings(setKeys: false, delay: false)
    #expect(result.sent == 1 && result.anonymous == 1 && result.orphanRisks == 0)
  }

  @Test("known users only (key set, delay on): nothing anonymous goes out; only a key switch warns")
  func knownOnly() {
    let result = orphanWarnings(setKeys: true, delay: true)
    #expect(result.anonymous == 0)
    #expect(result.orphanRisks == 1)  // R8.3 only: user A to user B on one device
  }

  @Test("both (key set after login, no delay): the made-up contact and the switch both warn")
  func both() {
    let result = orphanWarnings(setKeys: true, delay: false)
    #expect(result.anonymous == 1)
    #expect(result.orphanRisks == 2)  // R8.2 at login, R8.3 at the switch
  }
}
