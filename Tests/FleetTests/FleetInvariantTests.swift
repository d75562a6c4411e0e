import Fleet
import Foundation
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Synchronization
import Testing

/// The fleet is held to the single-device rules (issue "Fleets", Deliver 6).
@Suite("fleets keep the single-device rules")
struct FleetInvariantTests {
  static let day = 86_400.0

  /// Every device installs in the first 20 days and, if it logs in, within a day: all log in
  /// before the run ends. No shared phones, no reinstalls unless asked.
  static func plan(
    _ strategy: FleetPlan.Strategy, devices: Int = 2_000, loginShare: Double = 1,
    sharedShare: Double = 0, reinstallShare: Double = 0, outage: FleetPlan.Outage? = nil,
    seed: UInt64 = 7
  ) -> FleetPlan {
    FleetPlan(
      devices: devices, strategy: strategy, duration: 30 * day, installWithin: 20 * day,
      loginShare: loginShare, loginWithin: day, sharedShare: sharedShare,
      reinstallShare: reinstallShare, outage: outage, seed: seed)
  }

  @Test("known-only: no orphans, no made-up contacts; who never logs in is never registered")
  func knownOnly() async {
    let report = await FleetRun.run(Self.plan(.knownOnly, loginShare: 0.7))
    #expect(report.orphanedContacts == 0 && report.madeUpContacts == 0)
    #expect(
      report.neverRegistered > 400 && report.neverRegistered < 800, "\(report.neverRegistered)")
    #expect(report.distinctContacts == report.devices - report.neverRegistered)
  }

  @Test("anonymous-only: one made-up contact per device, no orphans")
  func anonymousOnly() async {
    let report = await FleetRun.run(Self.plan(.anonymousOnly))
    #expect(report.madeUpContacts == report.devices)
    #expect(report.distinctContacts == report.devices)
    #expect(report.orphanedContacts == 0 && report.neverRegistered == 0)
  }

  @Test("both, every device logging in once: each made-up contact is orphaned (R8.2)")
  func both() async {
    let report = await FleetRun.run(Self.plan(.both))
    #expect(report.madeUpContacts == report.devices)
    #expect(report.orphanedContacts == report.devices)
    #expect(report.distinctContacts == 2 * report.devices)
  }

  @Test("shared phones: the first user's contact is orphaned when the second logs in (R8.3)")
  func shared() async {
    let report = await FleetRun.run(Self.plan(.knownOnly, sharedShare: 0.3))
    #expect(report.orphanedContacts > 400 && report.orphanedContacts < 800)
    #expect(report.distinctContacts == report.devices + report.orphanedContacts)
  }

  @Test("the same seed gives the same numbers; another seed other numbers")
  func deterministic() async {
    let plan = Self.plan(.both, loginShare: 0.5, sharedShare: 0.1, reinstallShare: 0.1)
    let first = await FleetRun.run(plan)
    let again = await FleetRun.run(plan)
    #expect(first == again)
    var other = plan
    other.seed = 8
    #expect(await FleetRun.run(other) != first)
  }

  @Test("an outage: a device keeps exactly to the R4.1 ladder, then gets through")
  func ladder() {
    let outage = FleetPlan.Outage(start: 0, duration: 6 * 3600, kind: .status(503))
    var plan = Self.plan(.anonymousOnly, devices: 1, outage: outage)
    plan.installWithin = 1
    let (report, times) = FleetRun.household(plan, index: 0)
    let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
    let failures = times.filter { $0 < outage.end }.count
    #expect(failures >= 8)
    for (attempt, gap) in gaps.prefix(failures).enumerated() {
      #expect(abs(gap - min(60 * pow(2, Double(attempt)), 86_400)) < 1e-6, "attempt \(attempt + 1)")
    }
    #expect(times.last.map { $0 >= outage.end } == true)
    #expect(report.registrationsSent == times.count && report.distinctContacts == 1)
  }

  @Test("a 1-device fleet sends when the engine does: same registrations at the same times")
  func matchesTheEngine() async throws {
    let plan = Self.plan(.both, devices: 1)
    let (_, fleetTimes) = FleetRun.household(plan, index: 0)
    // The same household through a virtual-time session: install, then log in.
    let (installAt, loginAt) = FleetRun.schedule(plan, index: 0)
    var setup = SessionSetup()
    setup.deviceID = "F0-1"
    let session = try await DeviceSession.start(setup)
    try await session.advance(to: Instant(installAt))
    _ = try await session.execute(.launch)
    try await session.advance(to: Instant(loginAt))
    _ = try await session.execute(.edit(.setContactKey("user-0-a")))
    try await session.advance(to: Instant(plan.duration))
    let engineTimes = session.log.all.filter { $0.kind == .sent }.map(\.t.seconds)
    #expect(fleetTimes == engineTimes)
    #expect(fleetTimes.count == 2)
    await session.stop()
  }

  @Test("--jitter (a what-if): each retry's wait stays within ± the share of the ladder's")
  func jitter() {
    let outage = FleetPlan.Outage(start: 0, duration: 6 * 3600, kind: .status(503))
    var plan = Self.plan(.anonymousOnly, devices: 1, outage: outage)
    plan.installWithin = 1
    plan.jitter = 0.3
    let (_, times) = FleetRun.household(plan, index: 0)
    let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
    let failures = times.filter { $0 < outage.end }.count
    var differs = false
    for (attempt, gap) in gaps.prefix(failures).enumerated() {
      let ladder = min(60 * pow(2, Double(attempt)), 86_400)
      #expect(gap >= ladder * 0.7 - 1e-6 && gap <= ladder * 1.3 + 1e-6, "attempt \(attempt + 1)")
      if abs(gap - ladder) > 1e-6 { differs = true }
    }
    #expect(differs)
    // Deterministic all the same.
    #expect(FleetRun.household(plan, index: 0).1 == times)
  }

  @Test("token refreshes are registered like any device change, and bill no one new")
  func tokenRefreshes() async {
    var plan = Self.plan(.anonymousOnly, devices: 1_000)
    let quiet = await FleetRun.run(plan)
    plan.tokenRefreshEvery = 7 * Self.day
    let refreshed = await FleetRun.run(plan)
    #expect(refreshed.distinctContacts == quiet.distinctContacts)
    #expect(refreshed.orphanedContacts == 0)
    // Installs spread over 20 of 30 days: about 10/7 + phase refreshes a device.
    let extra = refreshed.registrationsSent - quiet.registrationsSent
    #expect(extra > 800 && extra < 3_000, "\(extra)")
  }

  @Test("a shipped SDK's profile runs the fleet as that SDK: the invariants hold for each")
  func profiles() async {
    for profile in [SDKProfile.ios, .android] {
      var known = Self.plan(.knownOnly, devices: 500)
      known.profile = profile
      let report = await FleetRun.run(known)
      #expect(report.madeUpContacts == 0 && report.orphanedContacts == 0, "\(profile.name)")
      var both = Self.plan(.both, devices: 500)
      both.profile = profile
      let orphans = await FleetRun.run(both)
      #expect(orphans.orphanedContacts == 500, "\(profile.name)")
    }
  }

  @Test(
    "a 1-device fleet sends at the same times as the matching built-in scenario",
    arguments: [("strategy-both", FleetPlan.Strategy.both), ("strategy-known-only", .knownOnly)])
  func matchesBuiltIn(name: String, strategy: FleetPlan.Strategy) async throws {
    let entry = try #require(BuiltInScenarios.named(name))
    let items = Mutex<[Double]>([])
    _ = try await ScenarioRunner.run(try BuiltInScenarios.scenario(entry)) { item in
      if case .event(let event) = item, event.kind == .sent {
        items.withLock { $0.append(event.t.seconds) }
      }
    }
    // The scenarios launch at 0 and set the key at 10 minutes, and run for 2 hours.
    var plan = Self.plan(strategy, devices: 1)
    plan.duration = 2 * 3600
    let (report, fleet) = FleetRun.household(plan, index: 0, installAt: 0, loginAt: 600)
    #expect(fleet == items.withLock { $0 })
    #expect(report.orphanedContacts == (strategy == .both ? 1 : 0))
  }
}
