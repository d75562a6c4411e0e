import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// The read-back's planner (#53: the least pure part made pure): what to ask next, what to
/// show on the way, decided from the queue, the clock and the device's registrations only.
@Suite("the read-back's planner, pure")
struct ReadBackPlanTests {
  static func registration(_ id: Int, at: Double, key: String?) throws -> ServerRegistration {
    try ReadBackTests.registration(id, at: at, key: key, attributes: ["FirstName": "Ada"])
  }

  @Test("a window after its 2xx the newest is asked about under its key; before, it sleeps")
  func askWhenRipe() throws {
    var queue = ReadBackQueue(window: 900)
    queue.answered("D", at: Instant(0))
    let sent = try Self.registration(1, at: 0, key: "user-1")
    let early = queue.plan(now: Instant(100)) { _ in [sent] }
    #expect(early.step == .sleep(until: Instant(900)) && early.effects.isEmpty)
    let ripe = queue.plan(now: Instant(900)) { _ in [sent] }
    #expect(ripe.step == .ask(deviceID: "D", contactKey: "user-1", registrationID: 1))
  }

  @Test("a newer registration inside the window: the device waits for it, marked due")
  func waitsForNewest() throws {
    var queue = ReadBackQueue(window: 900)
    queue.answered("D", at: Instant(0))
    let all = [
      try Self.registration(1, at: 0, key: "user-1"),
      try Self.registration(2, at: 600, key: "user-1"),
    ]
    let plan = queue.plan(now: Instant(900)) { _ in all }
    #expect(plan.effects == [.due(deviceID: "D", at: Instant(1_500))])
    #expect(plan.step == .sleep(until: Instant(1_500)))
  }

  @Test("no contact key ever: answered without the tenant; registrations gone: said so")
  func withoutTheTenant() throws {
    var queue = ReadBackQueue(window: 900)
    queue.answered("ANON", at: Instant(0))
    queue.answered("GONE", at: Instant(0))
    let anonymous = try Self.registration(1, at: 0, key: nil)
    let plan = queue.plan(now: Instant(900)) { $0 == "ANON" ? [anonymous] : [] }
    #expect(plan.effects.contains(.noContactKey(deviceID: "ANON", registrationID: 1)))
    #expect(plan.effects.contains(.leftWindow(deviceID: "GONE")))
    #expect(queue.waiting == 0)
  }

  @Test("the minute's lookups spent: the fifth device waits its turn")
  func rate() throws {
    var queue = ReadBackQueue(window: 900)
    for index in 0..<5 { queue.answered("D\(index)", at: Instant(0)) }
    var asked: [String] = []
    for _ in 0..<5 {
      if case .ask(let device, _, _) = queue.plan(
        now: Instant(900),
        registrations: { _ in
          [try! Self.registration(1, at: 0, key: "k")]
        }
      ).step {
        asked.append(device)
      }
    }
    #expect(asked.count == ReadBackQueue.perMinute && queue.waiting == 1)
  }
}
