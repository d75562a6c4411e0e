import EngagementCore
import RegistrationCore

/// One phone over the run, and the app reinstalled on it if it is: each installation is a
/// real `RegistrationMachine` fed its edits and the server's answers in time order, and the
/// server's contact bookkeeping (S3, S4, R8) is kept for the household's contacts.
struct Household {
  let plan: FleetPlan
  let index: Int
  private var random: FleetRandom
  var recordSends = false
  private(set) var sendTimes: [Double] = []
  /// The server's side: which installation each contact is associated with.
  private var contacts = ContactBook()
  private var madeUp = 0
  private var registered = false

  /// When set, the household installs and logs in at these times instead of drawn ones
  /// (tests replay a built-in scenario's timeline).
  var fixedSchedule: (install: Double, login: Double)?

  init(plan: FleetPlan, index: Int) {
    self.plan = plan
    self.index = index
    random = FleetRandom(seed: plan.seed, stream: UInt64(index))
  }

  mutating func run(into report: inout FleetReport) {
    let end = plan.duration
    var installAt = random.unit() * plan.installWithin
    let logsIn = random.chance(plan.loginShare)
    var loginAt = installAt + random.unit() * plan.loginWithin
    if let fixedSchedule { (installAt, loginAt) = fixedSchedule }
    let shared = logsIn && random.chance(plan.sharedShare)
    let changeAt = loginAt + random.unit() * max(0, end - loginAt)
    let reinstalls = random.chance(plan.reinstallShare)
    let reinstallAt = installAt + random.unit() * (end - installAt)
    let usesKeys = plan.strategy != .anonymousOnly
    var keys: [(at: Double, key: String)] = []
    if usesKeys && logsIn { keys.append((loginAt, "user-\(index)-a")) }
    if usesKeys && shared { keys.append((changeAt, "user-\(index)-b")) }
    // Token refreshes come about every `tokenRefreshEvery`, from a random phase.
    var tokens: [Double] = []
    if plan.tokenRefreshEvery > 0 {
      var at = installAt + random.unit() * plan.tokenRefreshEvery
      while at < end {
        tokens.append(at)
        at += plan.tokenRefreshEvery
      }
    }
    func edits(after start: Double, until stop: Double, signIn: (at: Double, key: String)?)
      -> [(at: Double, edit: Edit)]
    {
      var list = keys.filter { $0.at > start && $0.at < stop }.map {
        (at: $0.at, edit: Edit.setContactKey($0.key))
      }
      if let signIn { list.append((signIn.at, .setContactKey(signIn.key))) }
      list += tokens.filter { $0 > start && $0 < stop }.enumerated().map {
        (at: $0.element, edit: Edit.setSystem(.deviceToken, "token-\(index)-\($0.offset)"))
      }
      return list.sorted { $0.at < $1.at }
    }
    let firstEnd = reinstalls ? reinstallAt : end
    install(
      "F\(index)-1", from: installAt, until: firstEnd,
      edits: edits(after: installAt - 1, until: firstEnd, signIn: nil), into: &report)
    if reinstalls {
      // The user who was signed in signs in again on the new installation, a minute on.
      let signedIn = keys.last { $0.at <= reinstallAt }.map { (reinstallAt + 60, $0.key) }
      install(
        "F\(index)-2", from: reinstallAt, until: end,
        edits: edits(after: reinstallAt, until: end, signIn: signedIn), into: &report)
    }
    let devicesOf = self.contacts.devicesOf
    let contacts = Set(devicesOf.keys)
    report.distinctContacts += contacts.count
    report.madeUpContacts += madeUp
    report.orphanedContacts += contacts.filter { devicesOf[$0]?.isEmpty ?? true }.count
    if !registered { report.neverRegistered += 1 }
  }

  private mutating func install(
    _ deviceID: String, from start: Double, until end: Double,
    edits: [(at: Double, edit: Edit)], into report: inout FleetReport
  ) {
    let platform = plan.profile.platform ?? .iOS
    var settings = MachineSettings(
      platform: platform, etAppId: "fleet",
      delayRegistrationUntilContactKeyIsSet: plan.strategy == .knownOnly, profile: plan.profile)
    settings.retryJitter = plan.jitter
    var (machine, step) = RegistrationMachine.firstLaunch(
      settings: settings, deviceID: deviceID,
      environment: .demo(platform, profile: plan.profile), now: Instant(start))
    count(step, into: &report)
    var nextEdit = 0
    while true {
      let editAt = nextEdit < edits.count ? edits[nextEdit].at : nil
      guard let now = Instant.earliest(machine.nextDeadline, editAt.map(Instant.init))?.seconds,
        now < end
      else { return }
      if let editAt, editAt == now {
        let (_, step) = machine.apply(edits[nextEdit].edit, now: Instant(now))
        nextEdit += 1
        count(step, into: &report)
        continue
      }
      let step = machine.tick(now: Instant(now))
      count(step, into: &report)
      guard let send = step.send else { continue }
      report.registrationsSent += 1
      report.perMinute[min(report.perMinute.count - 1, Int(now / 60))] += 1
      if recordSends { sendTimes.append(now) }
      let result = answer(at: now)
      let finished = machine.sendFinished(sendID: send.id, result: result, now: Instant(now))
      count(finished, into: &report)
      if case .answered(let status, _, _, _) = result, RetryPolicy.isSuccess(status: status) {
        accept(send.payload, from: deviceID)
      }
    }
  }

  private func answer(at time: Double) -> SendResult {
    guard let outage = plan.outage, time >= outage.start, time < outage.end else {
      return .answered(status: 201, retryAfter: nil)
    }
    switch outage.kind {
    case .status(let status): return .answered(status: status, retryAfter: nil)
    case .retryAfter(let status, let seconds): return .answered(status: status, retryAfter: seconds)
    case .down: return .transportFailed("connection refused")
    }
  }

  private func count(_ step: Step, into report: inout FleetReport) {
    for event in step.events {
      if case .sendSkipped = event { report.registrationsSkipped += 1 }
    }
  }

  /// S3, S4, R8: a registration the server accepted, as processing will see it (by the
  /// server's own rules; an installation's push token is its own, so none is shared).
  private mutating func accept(_ payload: RegistrationPayload, from deviceID: String) {
    registered = true
    if contacts.accept(payload, deviceID: deviceID) { madeUp += 1 }
  }
}
