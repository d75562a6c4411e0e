import EngagementCore
import RegistrationCore

/// Asks the tenant for the push address of `deviceID` under `contactKey` (the edge that knows
/// the tenant's API: `TenantClient.pushAddressLookup`, in TenantAPI).
public typealias PushAddressLookup =
  @Sendable (_ contactKey: String, _ deviceID: String) async -> PushAddressAnswer

/// What one lookup came to.
public enum PushAddressAnswer: Sendable {
  case held(TenantHolding)
  /// 429: asked again after `retryAfter` seconds (a minute when it named none).
  case throttled(retryAfter: Double?, why: String)
  /// The tenant could not answer (unreachable, refused, malformed): said on the timeline.
  case failed(String)
}

/// "Did it arrive?" (`--tenant` with `--upstream`): each relayed device the tenant answered
/// 2xx is looked up once the window has passed (`ReadBackQueue`: a few a minute, a 429's
/// wait honoured), and what it holds is compared with what the app sent. The lookups run in
/// their own task; a registration never waits for one.
extension LocalEngagementServer {
  enum ReadBackStep: Sendable {
    /// `at`: when the request leaves, the time "asked" is said at.
    case ask(deviceID: String, contactKey: String, registrationID: Int, at: Instant)
    case sleep(until: Instant)
  }

  /// Reads back from now on, each lookup `window` seconds after the registration it checks.
  public func startReadBacks(window: Double) {
    readBacks = ReadBackQueue(window: window)
  }

  /// Looks devices up as they fall due, until the task is cancelled.
  public nonisolated func runReadBacks(lookup: PushAddressLookup) async {
    while !Task.isCancelled {
      switch await nextReadBack() {
      case .ask(let deviceID, let contactKey, let registrationID, let askedAt):
        let answer = await lookup(contactKey, deviceID)
        // The comparison runs here, off the server's actor: a huge answer against a huge
        // registration never holds another device's registration (docs/tenant.md).
        if case .held(let holding) = answer,
          let inputs = await comparisonInputs(deviceID, registrationID: registrationID)
        {
          let readBack = ReadBack.compare(
            inputs.compared, holding: holding, registrations: inputs.registrations,
            askedAt: askedAt, window: inputs.window, defined: inputs.defined)
          await record(readBack, of: deviceID)
        } else {
          await settleReadBack(
            answer, deviceID: deviceID, contactKey: contactKey, registrationID: registrationID,
            askedAt: askedAt)
        }
      case .sleep(let until):
        do {
          try await clock.sleep(until: until)
        } catch {
          return
        }
      }
    }
  }

  /// Queues a lookup for a registration the tenant answered 2xx, and marks on the device
  /// when it falls due; with `pendingLimit` devices waiting, says on the device that it will
  /// not be looked up.
  func queueReadBack(_ deviceID: String, status: Int?, at now: Instant) {
    guard var queue = readBacks, let status, RetryPolicy.isSuccess(status: status) else {
      return
    }
    let queued = queue.answered(deviceID, at: now)
    readBacks = queue
    if queued {
      watch.markReadBackDue(queue.dueAt(deviceID), of: deviceID)
    } else if let newest = registrations(of: deviceID).last {
      record(
        ReadBack.unanswered(
          newest, askedAt: now, window: queue.window, contactKey: newest.payload.subscriberKey,
          problem:
            "not asked: \(NumberText.grouped(ReadBackQueue.pendingLimit)) devices already wait for the tenant's read-back (at most \(ReadBackQueue.perMinute) lookups a minute)"
        ), of: deviceID)
    }
  }

  /// The next lookup to make, or how long to wait for one: decided by the pure planner
  /// (`ReadBackQueue.plan`), carried out here (the due marks, the lines said, a registration
  /// without a contact key answered without the tenant).
  func nextReadBack() -> ReadBackStep {
    let now = clock.now()
    guard var queue = readBacks else { return .sleep(until: now + ReadBackQueue.defaultWindow) }
    let plan = queue.plan(now: now) { core.registrations(of: $0) }
    readBacks = queue
    for effect in plan.effects {
      switch effect {
      case .due(let deviceID, let at):
        watch.markReadBackDue(at, of: deviceID)
      case .leftWindow(let deviceID):
        changes.send(
          .event(
            .readBack(
              deviceID: TerminalText.escaped(deviceID),
              summary:
                "tenant read-back not asked: the device's registrations left the server's window (the newest \(NumberText.grouped(core.settings.registrationWindow)) are kept)",
              allHeld: false), at: now))
      case .noContactKey(let deviceID, let registrationID):
        guard let compared = registrations(of: deviceID).first(where: { $0.id == registrationID })
        else { continue }
        record(
          ReadBack.unanswered(
            compared, askedAt: now, window: queue.window, contactKey: nil,
            problem: ReadBack.noContactKey), of: deviceID)
      }
    }
    switch plan.step {
    case .ask(let deviceID, let contactKey, let registrationID):
      return .ask(
        deviceID: deviceID, contactKey: contactKey, registrationID: registrationID, at: now)
    case .sleep(let until):
      return .sleep(until: until)
    }
  }

  private func registrations(of deviceID: String) -> [ServerRegistration] {
    core.registrations(of: deviceID)
  }

  /// What the comparison reads of the server, copied out so it can run off the actor; nil
  /// (and the device's due mark kept) when the registration has left the window.
  func comparisonInputs(_ deviceID: String, registrationID: Int) -> (
    compared: ServerRegistration, registrations: [ServerRegistration], window: Double,
    defined: Set<String>?
  )? {
    guard let queue = readBacks else { return nil }
    let mine = registrations(of: deviceID)
    guard let compared = mine.first(where: { $0.id == registrationID }) else {
      watch.markReadBackDue(queue.dueAt(deviceID), of: deviceID)
      return nil
    }
    return (compared, mine, queue.window, core.settings.definedAttributes)
  }

  /// Settles a lookup; `askedAt` is when its request left (the default, now, for a caller
  /// that asks and settles in one breath).
  func settleReadBack(
    _ answer: PushAddressAnswer, deviceID: String, contactKey: String, registrationID: Int,
    askedAt: Instant? = nil
  ) {
    let now = clock.now()
    let askedAt = askedAt ?? now
    guard var queue = readBacks else { return }
    let mine = registrations(of: deviceID)
    guard let compared = mine.first(where: { $0.id == registrationID }) else {
      watch.markReadBackDue(queue.dueAt(deviceID), of: deviceID)
      return
    }
    switch answer {
    case .held(let holding):
      record(
        ReadBack.compare(
          compared, holding: holding, registrations: mine, askedAt: askedAt,
          window: queue.window, defined: core.settings.definedAttributes), of: deviceID)
    case .failed(let why):
      record(
        ReadBack.unanswered(
          compared, askedAt: askedAt, window: queue.window, contactKey: contactKey,
          problem: "the tenant could not answer: \(why)"), of: deviceID)
    case .throttled(let retryAfter, let why):
      queue.throttled(deviceID, now: now, retryAfter: retryAfter)
      readBacks = queue
      let due = queue.dueAt(deviceID)
      watch.markReadBackDue(due, of: deviceID)
      changes.send(
        .event(
          .readBack(
            deviceID: TerminalText.escaped(deviceID),
            summary:
              "tenant read-back paused: \(why); asked again in \(DurationText.describe((due ?? now) - now))",
            allHeld: false), at: now))
    }
  }

  func record(_ readBack: ReadBack, of deviceID: String) {
    let now = clock.now()
    // A 2xx that came while the tenant was asked waits its own turn: still due.
    watch.recordReadBack(readBack, of: deviceID, due: readBacks?.dueAt(deviceID))
    changes.send(
      .event(
        .readBack(
          deviceID: TerminalText.escaped(deviceID), summary: readBack.summary,
          allHeld: readBack.allHeld), at: now))
    watched()
  }
}
