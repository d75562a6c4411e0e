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

  @Test("preview tells the warnings without applying anything")
  func previewDoesNotApply() {
    let h = CoreHarness.launchedAndRegistered()
    let outcome = h.machine.preview(.setContactKey("test"), now: Instant(5))
    #expect(outcome.warnings.map(\.code).contains(.genericContactKey))
    #expect(h.machine.state.record.contactKey == nil)
  }
}
