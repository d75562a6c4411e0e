import Clocks
import EngagementCore
import RegistrationCore
import Synchronization

/// The local Engagement server: the pure core, its store and a clock. The HTTP front and the
/// in-process transport of scenarios both talk to this actor. Registrations come in one way
/// (`receiveAll(taking:)`, `LocalEngagementServer+Receive`); what changed goes out one way
/// (`changes`).
public actor LocalEngagementServer {
  public nonisolated let clock: any EngineClock
  /// Changed by receiving (`LocalEngagementServer+Receive`) and processing (this file); read
  /// by the views (`LocalEngagementServer+Views`) and the read-back.
  var core: EngagementServerCore
  let store: ServerStore
  /// Where the server keeps its data: a SQLite file, or "in memory".
  public nonisolated var storeLocation: String { store.location }
  /// Writes the group commit's transactions off the actor.
  let writer: StoreWriter
  var storeProblem: String? { writer.storeProblem }
  /// Changes not yet written: flushed in one transaction (group commit) `commitWindow` after
  /// the first of them, or at once when `commitBatch` requests' have gathered. A follow-up
  /// task with no wait ran on the next turn of the actor, which under a fleet carried one or
  /// two registrations a transaction, and the transaction cost more than its rows. Gathered
  /// in one set of lists, which requests append to (`receive(_:now:into:)`).
  var unwritten = EngagementServerCore.Changes()
  /// Requests whose changes wait in `unwritten`.
  var unwrittenRequests = 0
  /// How long a change may wait for others to share its transaction (wall-clock: it bounds
  /// what a crash of the server can lose, whatever its clock).
  let commitWindow: Duration
  var flushScheduled = false
  /// What real apps sent, device by device, and what the rules say of it.
  var watch = DeviceWatch(makeToken: LocalEngagementServer.pooledToken)
  /// Every change, as it happens: the events, the watch, the schedule, the store.
  public nonisolated let changes = ServerChanges()
  /// Registrations that came in through `receiveAll(taking:)`, whatever path brought them.
  public nonisolated let entered = Atomic<Int>(0)
  /// Reads the tenant's demographics again (`--tenant`), set by the tool that started it.
  public nonisolated let demographicsRefresh = Mutex<DemographicsRefresher?>(nil)
  /// Relayed devices waiting to be looked up in the tenant (`--tenant` with `--upstream`);
  /// nil when nothing reads back (`LocalEngagementServer+ReadBack`).
  var readBacks: ReadBackQueue?

  /// Loads what `store` holds; settings given here override the stored demographics only when
  /// `settings.definedAttributes` is set.
  public init(
    settings: ServerSettings, store: ServerStore, clock: any EngineClock, seed: UInt64 = 0x5EED,
    adoptsFirstApp: Bool = false, announcesFindings: Bool = false,
    commitWindow: Duration = .milliseconds(20)
  ) throws {
    self.commitWindow = commitWindow
    self.announcesFindings = announcesFindings
    let stored = try store.load(window: settings.registrationWindow)
    var settings = settings
    if settings.definedAttributes == nil, case .some(let defined) = stored.definedAttributes {
      settings.definedAttributes = defined
    }
    core = EngagementServerCore(settings: settings, seed: seed, stored: stored)
    self.store = store
    writer = StoreWriter(store: store, changes: changes)
    self.clock = clock
    checked = Mutex(settings)
    self.adoptsFirstApp = adoptsFirstApp
  }

  // MARK: Requests (the registration's own way in: `LocalEngagementServer+Receive`)

  /// Relay mode: an injected fault answers first (S7), as it does locally; nil when none
  /// applies, and the request goes on to the real tenant.
  public func injectedAnswer() -> ServerAnswer? {
    let now = clock.now()
    var changes = EngagementServerCore.Changes()
    let answer = core.applyFault(now: now, changes: &changes)
    commit(changes, at: now)
    return answer
  }

  /// Relay mode: the tenant's answer to a registration, recorded against the device with
  /// the subscriber token the tenant handed out. A registration the tenant accepted is
  /// mirrored here too (when it passes this server's own checks), so the local views show it;
  /// one it did not (`refusal`: who answered what) is said as a refusal, as this server's
  /// own are, so a relay that fails is never silent.
  public func recordRelayed(
    body: [UInt8], facts: RequestFacts, receivedAt now: Instant, status: Int?,
    retryAfter: RetryAfter.Value?, issuedToken: String?, local: Bool = false,
    refusal: String? = nil
  ) {
    let validation = EngagementServerCore.validate(
      authorization: "Bearer \(core.settings.accessToken)", body: body, settings: core.settings)
    guard case .valid(let payload, _) = validation, let deviceID = payload.deviceID,
      !deviceID.isEmpty
    else { return }
    if let status, RetryPolicy.isSuccess(status: status) {
      var (_, changes) = core.receive(validation, now: now)
      // The app got the tenant's status (a 200 or 202 too), not this server's 201: said so.
      changes.events = changes.events.map { event in
        guard case .received(let id, let device, _, let processAt) = event else { return event }
        return .received(registrationID: id, deviceID: device, status: status, processAt: processAt)
      }
      commit(changes, at: now)
      self.changes.send(.schedule)
    }
    if let refusal {
      changes.send(
        .event(.refused(status: status ?? 0, reason: refusal, deviceID: deviceID), at: now))
    }

    _ = watch.record(
      ReceivedRegistration(
        deviceID: deviceID, payload: payload, body: body, facts: facts, at: now, status: status,
        retryAfter: retryAfter, server: core.judgeFacts(excluding: deviceID),
        issuedToken: issuedToken,
        local: local))
    // Only the tenant's own 2xx is worth asking it about; the relay's answers never are.
    queueReadBack(deviceID, status: local ? nil : status, at: now)
    announceFindings(of: deviceID, at: now)
    watched()
  }

  /// A receiver says each finding as an event (its output and timeline); a simulated
  /// device's server keeps them to the watch, so scenario event streams stay as they were.
  let announcesFindings: Bool

  /// Says the violations and warnings just found, a few a device a minute at most.
  func announceFindings(of deviceID: String, at now: Instant) {
    guard announcesFindings else { return }
    for finding in watch.findingsToAnnounce(of: deviceID, at: now) {
      changes.send(.event(.finding(deviceID: deviceID, finding: finding), at: now))
    }
  }

  /// After each request that changes a watched device's record: what a QA run waits on.
  func watched() { changes.send(.watched) }

  /// A call to one of the SDK's other device routes: recorded against its device.
  public func receiveOther(
    route: String, deviceID: String?, facts: RequestFacts, body: [UInt8] = []
  ) {
    watch.recordOther(route: route, deviceID: deviceID, facts: facts, at: clock.now(), body: body)
    watched()
  }

  /// The devices real apps registered, the most recently seen first.
  public func watchedDevices(newest limit: Int) -> [DeviceWatch.Device] {
    watch.newest(limit)
  }

  public func watchedDevice(_ deviceID: String) -> DeviceWatch.Device? { watch.devices[deviceID] }

  /// Whether `deviceID`'s timeline was dropped to keep the watch within its limit.
  public func watchDropped(_ deviceID: String) -> Bool { watch.wasDropped(deviceID) }

  /// Devices that registered but that processing (S2) has not made devices of yet, newest
  /// first: a real app shows up at once, not after the processing delay.
  public func watchedAwaitingProcessing(limit: Int, after: String? = nil) -> [DeviceWatch.Device] {
    var found: [DeviceWatch.Device] = []
    var passed = after == nil
    for device in watch.newest(watch.devices.count) where core.devices[device.deviceID] == nil {
      if !passed {
        passed = device.deviceID == after
        continue
      }
      found.append(device)
      if found.count == limit { break }
    }
    return found
  }

  public func watchedDevices(_ deviceIDs: [String]) -> [String: DeviceWatch.Device] {
    var found: [String: DeviceWatch.Device] = [:]
    for id in deviceIDs { found[id] = watch.devices[id] }
    return found
  }

  /// Processes what is due now (S2).
  public func processDue() {
    let now = clock.now()
    let spilled = core.dueWithoutPayload(now: now)
    var bodies: [Int: Result<RegistrationPayload, StoredBodyUnreadable>] = [:]
    if !spilled.isEmpty {
      // What is due may still sit in the group commit, or wait for the writer.
      startWrite()
      writer.drainedNow()
      bodies = store.payloads(spilled)
    }
    commit(
      core.processDue(now: now) {
        bodies[$0] ?? .failure(StoredBodyUnreadable("registration \($0) was not read"))
      },
      at: now)
  }

  public var nextDeadline: Instant? { core.nextDeadline }

  /// What stateless validation needs. The token and app id change at most once: when an
  /// `--any-app` server adopts the first request's.
  public nonisolated var validationSettings: ServerSettings { checked.withLock { $0 } }
  private nonisolated let checked: Mutex<ServerSettings>
  /// `--any-app`: the first registration's app id and token become the app's.
  public nonisolated let adoptsFirstApp: Bool
  /// Set once the first app was adopted (`adoptsFirstApp`).
  public private(set) var adoptedApp: (appID: String, maskedToken: String)?

  /// What a receiver says about `--any-app`; nil without it.
  public var adoptionNotice: String? {
    guard adoptsFirstApp else { return nil }
    guard let adoptedApp else {
      return "--any-app: the first registration's app id and token become this app's"
    }
    return "adopted app \(adoptedApp.appID) (--any-app)"
  }

  /// `--any-app`: takes this request's app id and bearer token as the app's, if no app was
  /// adopted yet, and only from a request that is then accepted: one refused for its body
  /// (400) must not make the real app's later requests 401. Returns whether it did.
  public func adoptIfFirst(authorization: String?, payload: RegistrationPayload?) -> Bool {
    guard adoptsFirstApp, adoptedApp == nil,
      let parts = authorization?.split(separator: " ", maxSplits: 1), parts.count == 2,
      parts[0].lowercased() == "bearer",
      let payload, RequiredFields.missing(in: payload).isEmpty,
      let appID = payload.etAppId.map(InputRules.trimmed)
    else { return false }
    let token = InputRules.trimmed(String(parts[1]))
    guard !token.isEmpty, BearerAuthorization.problem(authorization, token: token) == nil else {
      return false
    }
    core.adopt(appID: appID, accessToken: token)
    checked.withLock {
      $0.appID = appID
      $0.accessToken = token
    }
    adoptedApp = (appID, TokenText.masked(token))
    changes.send(
      .event(.adopted(appID: appID, maskedToken: TokenText.masked(token)), at: clock.now()))
    watched()
    return true
  }

  /// Runs processing on the clock until cancelled: sleeps until the next registration is due
  /// or something changes. No ticker.
  public func run() async {
    let schedule = changes.signal(.schedule)
    while !Task.isCancelled {
      let generation = schedule.generation
      if let deadline = core.nextDeadline, deadline <= clock.now() {
        processDue()
        continue
      }
      await clock.sleep(until: core.nextDeadline, orUntil: schedule, movesPast: generation)
    }
  }

  // MARK: Control (S5, S7)

  public func setFault(_ fault: ServerFault?) {
    core.setFault(fault)
    faultSet.store(fault != nil, ordering: .relaxed)
    changes.send(.schedule)
  }

  /// Whether a fault was injected (and not yet cleared), readable without a hop to the actor:
  /// the HTTP front's fast path leaves every registration to the full path while one is.
  public nonisolated let faultSet = Atomic<Bool>(false)

  public var fault: ServerFault? { core.fault }

  /// True while connections must be refused.
  public func isDown() -> Bool { core.isDown(now: clock.now()) }

  public func defineAttributes(_ names: Set<String>?) throws {
    core.defineAttributes(names)
    try store.saveDefinedAttributes(names)
  }

  public func defineAttribute(_ name: String) throws {
    var names = core.settings.definedAttributes ?? []
    names.insert(name)
    try defineAttributes(names)
  }

  public var settings: ServerSettings { core.settings }
}
