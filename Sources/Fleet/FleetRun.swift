import RegistrationCore

/// What a fleet did, as a marketer asks it: how many contacts are billed, how many can no
/// longer be reached, and what the server had to take, minute by minute.
public struct FleetReport: Sendable, Hashable {
  public var strategy: FleetPlan.Strategy
  public var devices: Int
  public var distinctContacts = 0
  public var orphanedContacts = 0
  public var madeUpContacts = 0
  public var neverRegistered = 0
  public var registrationsSent = 0
  public var registrationsSkipped = 0
  /// Registrations the server received in each minute (index = minute since the start).
  public var perMinute: [Int]
  public var outage: FleetPlan.Outage?

  public var peakPerMinute: Int { perMinute.max() ?? 0 }

  /// The busiest minute in the day after the outage ends.
  public var peakAfterOutagePerMinute: Int? {
    guard let outage else { return nil }
    let from = min(perMinute.count, Int(outage.end / 60))
    let to = min(perMinute.count, from + 1_440)
    return from < to ? perMinute[from..<to].max() ?? 0 : 0
  }

  /// Seconds after the outage ends until the load is back within 10% of the hour before it
  /// (or of 1 a minute, if that hour was quieter).
  public var catchUpSeconds: Double? {
    guard let outage else { return nil }
    // Minutes clamped to the run, so an outage that reaches its end cannot make a bad range.
    let count = perMinute.count
    let start = min(count, max(0, Int(outage.start / 60)))
    let end = min(count, max(start, Int(outage.end / 60)))
    let before = perMinute[max(0, start - 60)..<start]
    let baseline = max(1.0, Double(before.reduce(0, +)) / Double(max(1, before.count)))
    for minute in end..<count where Double(perMinute[minute]) <= baseline * 1.1 {
      return Double(minute - end) * 60
    }
    return nil
  }

  mutating func merge(_ other: FleetReport) {
    distinctContacts += other.distinctContacts
    orphanedContacts += other.orphanedContacts
    madeUpContacts += other.madeUpContacts
    neverRegistered += other.neverRegistered
    registrationsSent += other.registrationsSent
    registrationsSkipped += other.registrationsSkipped
    for (minute, count) in other.perMinute.enumerated() { perMinute[minute] += count }
  }
}

/// Runs a fleet on the pure machine, one household (a phone and its reinstalls) at a time:
/// no SQLite, no actor, no task per device. Households are independent, so they are split
/// across the cores; each draws from its own seeded stream, so the result does not depend on
/// the split.
public enum FleetRun {
  /// `cores`: how many the machine has online (the tool reads it); the report is the same
  /// whatever the number. Each worker gives other tasks a turn every thousand households;
  /// cancelled (the inspector quit), it stops there and returns what it counted so far, which
  /// the caller drops.
  public static func run(
    _ plan: FleetPlan, cores: Int = 1, progress: (@Sendable (Int) -> Void)? = nil
  ) async -> FleetReport {
    let minutes = Int((plan.duration / 60).rounded(.up)) + 1
    let empty = FleetReport(
      strategy: plan.strategy, devices: plan.devices,
      perMinute: Array(repeating: 0, count: minutes),
      outage: plan.outage)
    let workers = max(1, min(8, plan.devices / 1_000 + 1, cores))
    let chunk = (plan.devices + workers - 1) / workers
    return await withTaskGroup(of: FleetReport.self) { group in
      for worker in 0..<workers {
        let range = (worker * chunk)..<min(plan.devices, (worker + 1) * chunk)
        group.addTask {
          var report = empty
          for (done, index) in range.enumerated() {
            if done % 1_000 == 999 {
              // The workers fill the cooperative threads: a turn for the other tasks (the
              // inspector's session, its quit) now and then, and a cancelled run stops.
              await Task.yield()
              if Task.isCancelled { break }
            }
            var household = Household(plan: plan, index: index)
            household.run(into: &report)
            if done % 10_000 == 9_999 { progress?(10_000) }
          }
          return report
        }
      }
      var total = empty
      for await part in group { total.merge(part) }
      return total
    }
  }

  /// One household run alone (tests compare it with the single-device rules).
  public static func household(
    _ plan: FleetPlan, index: Int, installAt: Double? = nil, loginAt: Double? = nil
  ) -> (FleetReport, [Double]) {
    var report = FleetReport(
      strategy: plan.strategy, devices: 1,
      perMinute: Array(repeating: 0, count: Int((plan.duration / 60).rounded(.up)) + 1),
      outage: plan.outage)
    var household = Household(plan: plan, index: index)
    household.recordSends = true
    if let installAt, let loginAt { household.fixedSchedule = (installAt, loginAt) }
    household.run(into: &report)
    return (report, household.sendTimes)
  }
}

extension FleetRun {
  /// When household `index` installs and when its user logs in (tests replay it).
  public static func schedule(_ plan: FleetPlan, index: Int) -> (install: Double, login: Double) {
    var random = FleetRandom(seed: plan.seed, stream: UInt64(index))
    let installAt = random.unit() * plan.installWithin
    _ = random.chance(plan.loginShare)
    return (installAt, installAt + random.unit() * plan.loginWithin)
  }
}
