import EngagementCore
import RegistrationCore

/// Asks the tenant for the push address of `deviceID` under `contactKey` (the edge that knows
/// the tenant's API: `TenantTable.readBack`).
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
    case ask(deviceID: String, contactKey: String, registrationID: Int)
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
      case .ask(let deviceID, let contactKey, let registrationID):
        let answer = await lookup(contactKey, deviceID)
        await settleReadBack(
          answer, deviceID: deviceID, contactKey: contactKey, registrationID: registrationID)
      case .sleep(let until):
        do {
          try await clock.sleep(until: until)
        } catch {
          return
        }
      }
    }
  }

  /// Queues a lookup for a registration the tenant answered 2xx; the instant it falls due.
  func readBackDue(_ deviceID: String, status: Int?, at now: Instant) -> Instant? {
    guard var queue = readBacks, let status, RetryPolicy.isSuccess(status: status) else {
      return nil
    }
    queue.answered(deviceID, at: now)
    readBacks = queue
    return queue.dueAt(deviceID)
  }

  /// The next lookup to make, or how long to wait for one. A device whose registration
  /// carried no contact key is answered here, without the tenant (nothing to search by).
  func nextReadBack() -> ReadBackStep {
    let now = clock.now()
    guard var queue = readBacks else { return .sleep(until: now + ReadBackQueue.defaultWindow) }
    defer { readBacks = queue }
    while let deviceID = queue.take(now: now) {
      guard let compared = comparedRegistration(of: deviceID, now: now, window: queue.window)
      else {
        watch.markReadBackDue(nil, of: deviceID)
        continue
      }
      guard let key = compared.payload.subscriberKey.map(InputRules.trimmed), !key.isEmpty else {
        record(
          ReadBack.unanswered(
            compared, askedAt: now, window: queue.window, contactKey: nil,
            problem: ReadBack.noContactKey), of: deviceID)
        continue
      }
      return .ask(deviceID: deviceID, contactKey: key, registrationID: compared.id)
    }
    // A registration coming in now falls due a window from now: never later than this wake.
    let wake = queue.nextWake(now: now) ?? now + queue.window
    return .sleep(until: min(wake, now + queue.window))
  }

  /// The newest registration of the device the tenant answered 2xx at least `window` ago.
  private func comparedRegistration(of deviceID: String, now: Instant, window: Double)
    -> ServerRegistration?
  {
    registrations(of: deviceID).last { $0.receivedAt + window <= now }
  }

  private func registrations(of deviceID: String) -> [ServerRegistration] {
    core.registrations.values
      .filter { InputRules.trimmed($0.payload.deviceID ?? "") == deviceID }
      .sorted { $0.id < $1.id }
  }

  func settleReadBack(
    _ answer: PushAddressAnswer, deviceID: String, contactKey: String, registrationID: Int
  ) {
    let now = clock.now()
    guard var queue = readBacks else { return }
    let mine = registrations(of: deviceID)
    guard let compared = mine.first(where: { $0.id == registrationID }) else { return }
    switch answer {
    case .held(let holding):
      record(
        ReadBack.compare(
          compared, holding: holding, registrations: mine, askedAt: now, window: queue.window,
          defined: core.settings.definedAttributes), of: deviceID)
    case .failed(let why):
      record(
        ReadBack.unanswered(
          compared, askedAt: now, window: queue.window, contactKey: contactKey,
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

  private func record(_ readBack: ReadBack, of deviceID: String) {
    let now = clock.now()
    watch.recordReadBack(readBack, of: deviceID)
    changes.send(
      .event(
        .readBack(
          deviceID: TerminalText.escaped(deviceID), summary: readBack.summary,
          allHeld: readBack.allHeld), at: now))
    watched()
  }
}
