import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

@Suite("a bounded core: views by the newest, pages by a cursor")
struct CoreBoundsTests {
  @Test("the views keep the newest registrations only; the counts keep counting")
  func window() {
    var core = EngagementServerCore(
      settings: ServerSettings(
        appID: appID, accessToken: token, processingDelay: 0, registrationWindow: 10))
    var now = Instant.zero
    for index in 0..<250 {
      _ = core.receive(
        authorization: "Bearer \(token)",
        body: body(device: "D\(index % 7)", key: index % 50 == 0 ? "user-\(index)" : nil),
        now: now)
      now = now + 1
      _ = core.processDue(now: now)
    }
    let shown = core.registrationsPage(limit: 1_000, before: nil)
    #expect(shown.items.count == 10 && shown.next == nil)
    #expect(shown.items.last?.id == 241 && core.windowStart == 241)
    #expect(core.registrations.count < 20, "the window's older half leaves in one go")
    #expect(core.snapshot(limit: 100, now: now, storeProblem: nil).registrations.count == 10)
    let stats = core.stats()
    #expect(stats.received == 250)
    #expect(stats.processed == 250)
    #expect(stats.pending == 0)
    #expect(stats.devices == 7)
    // The counters agree with what a scan of the contacts finds.
    #expect(stats.orphanedContacts == core.contacts.values.filter { $0.orphanedAt != nil }.count)
    #expect(stats.madeUpContacts == core.contacts.values.filter(\.madeUp).count)
    #expect(stats.activeDevices == core.devices.values.filter(\.active).count)
  }

  @Test("pages: newest first, limit and before, and a cursor that names nothing")
  func pages() throws {
    var h = ServerHarness(delay: 0)
    for index in 0..<5 {
      h.post(body(device: "D\(index)", key: "user-\(index)"))
      h.advance(by: 1)
    }
    let first = try h.core.devicesPage(limit: 2, before: nil)
    #expect(first.items.map(\.deviceID) == ["D4", "D3"])
    let second = try h.core.devicesPage(limit: 2, before: first.next)
    #expect(second.items.map(\.deviceID) == ["D2", "D1"])
    let last = try h.core.devicesPage(limit: 2, before: second.next)
    #expect(last.items.map(\.deviceID) == ["D0"] && last.next == nil)
    let registrations = h.core.registrationsPage(limit: 3, before: 4)
    #expect(registrations.items.map(\.id) == [3, 2, 1] && registrations.next == nil)
    #expect(throws: UnknownCursor.self) { try h.core.contactsPage(limit: 2, before: "nobody") }
  }
}
