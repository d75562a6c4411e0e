/// When the next registration goes out, and why (R3, R4, the SDK profile's schedule).
extension RegistrationMachine {
  /// What happens next and when (R3, R4). Pure: the same state always gives the same plan.
  public var plan: SendPlan {
    if let inFlight { return .inFlight(since: inFlight.startedAt) }
    let scheduler = state.scheduler
    if state.pending.isEmpty && scheduler.retry == nil { return .idle }
    if settings.delayRegistrationUntilContactKeyIsSet && state.record.contactKey == nil {
      return .delayedForContactKey
    }
    let missing = missingRequired
    if !missing.isEmpty { return .blocked(missing: missing) }
    if let at = backgroundFlushAt, let first = earliestPending {
      // Android, gone to the background: the device throttle is deleted, the change goes now.
      return .due(at: at, reason: .change, openedBy: first.target)
    }
    if let retry = scheduler.retry {
      return .due(at: retry.nextAttemptAt, reason: .retry, openedBy: nil)
    }
    if pendingIndex[.initial] != nil, let dueAt = scheduler.initialDueAt {
      return .due(at: dueAt, reason: .initial, openedBy: .initial)
    }
    guard let first = earliestPending else { return .idle }
    return .due(at: changeDue(first), reason: .change, openedBy: first.target)
  }

  /// When a change goes out, by the profile's schedule.
  func changeDue(_ first: PendingChange) -> Instant {
    let scheduler = state.scheduler
    switch settings.profile.schedule {
    case .window:
      // The window opens at the first change, but never before the last success (R3.2, R4.4).
      let windowStart = max(first.firstAt, scheduler.lastSuccessAt ?? first.firstAt)
      return windowStart + RetryPolicy.throttle
    case .throttleAlarm(let editPause):
      // After the edit's pause: a send inside the throttle is answered on the device (see
      // `tick`).
      return first.lastAt + editPause
    case .interval(let batchPause):
      // One send per interval (60 s after a success), after the batching pause, and not
      // while the server's Retry-After lies ahead. A relaunch forgets the interval: then
      // the pause runs from the launch.
      var due = max(first.firstAt, launchedAt ?? first.firstAt) + batchPause
      if let last = scheduler.lastAttemptAt { due = max(due, last + RetryPolicy.firstInterval) }
      if !settings.profile.defersUntilRetryAfter, let until = scheduler.retryAfterUntil {
        due = max(due, until)
      }
      return due
    }
  }

  /// Why a change goes out at `at`, as the event stream says it: the profile's rule, or
  /// Android's two exceptions to it (a change sent at once from the background, an attempt
  /// inside the throttle answered on the device).
  func changeReason(at: Instant, openedBy: ChangeTarget?) -> String {
    let target = openedBy?.description ?? "a change"
    guard case .throttleAlarm = settings.profile.schedule else {
      return settings.profile.changeReason(target)
    }
    // In the background only the server's Retry-After still holds a send back.
    let held = throttledUntil(now: at) != nil
    if backgroundFlushAt != nil {
      return held
        ? "\(target): the app went to the background, but the server's Retry-After still holds: the device answers this attempt 429 and sends when its alarm fires"
        : "\(target): the app went to the background, which sends a pending change at once"
    }
    if held {
      return settings.profile.changeReason(target)
        + ": it is, so the device answers this attempt 429 and sends when its alarm fires"
    }
    return settings.profile.changeReason(target)
  }

  /// Android's device throttle: nothing leaves before 60 s after the last send and after the
  /// last success, nor before the server's Retry-After (SDK-FACTS.md).
  func throttledUntil(now: Instant) -> Instant? {
    guard case .throttleAlarm = settings.profile.schedule else { return nil }
    let scheduler = state.scheduler
    // Going to the background deletes the device throttle; the Retry-After gate stays.
    let throttled = backgroundFlushAt == nil
    let until = Instant.latest(
      throttled ? scheduler.lastAttemptAt.map { $0 + RetryPolicy.throttle } : nil,
      throttled ? scheduler.lastSuccessAt.map { $0 + RetryPolicy.throttle } : nil,
      scheduler.retryAfterUntil)
    guard let until, now < until else { return nil }
    return until
  }

  /// When the engine must call `tick` next, or nil when nothing is scheduled.
  public var nextDeadline: Instant? {
    if case .due(let at, _, _) = plan { return at }
    return nil
  }

  /// R6.3: the required fields this record lacks.
  public var missingRequired: [String] {
    RequiredFields.missing(record: state.record, settings: settings)
  }

  /// Marks when the initial registration became sendable (R3.1, R3.5).
  mutating func prepareInitial(now: Instant) {
    guard pendingIndex[.initial] != nil, state.scheduler.initialDueAt == nil else { return }
    if settings.delayRegistrationUntilContactKeyIsSet && state.record.contactKey == nil { return }
    state.scheduler.initialDueAt = now
  }

  /// Ends every step: brings the plan up to date and announces it if it changed.
  mutating func finish(_ step: inout Step, now: Instant) {
    if pendingIndex[.initial] != nil, state.scheduler.initialDueAt == nil {
      prepareInitial(now: now)
      if state.scheduler.initialDueAt != nil { step.persist = true }
    }
    let current = plan
    guard current != announced else { return }
    announced = current
    switch current {
    case .due(let at, let reason, let openedBy):
      step.events.append(
        .scheduled(
          at: at, reason: reason, openedBy: openedBy,
          rule: changeReason(at: at, openedBy: openedBy)))
    case .delayedForContactKey:
      step.events.append(
        .delayed(
          reason:
            "delayRegistrationUntilContactKeyIsSet is on and no contact key is set: nothing is sent until one is"
        ))
    case .blocked(let missing):
      step.events.append(
        .warning(
          Warning(
            code: .missingRequired, rule: "R6.3",
            message: "not sent: the record lacks \(missing.joined(separator: ", "))")))
    case .idle, .inFlight:
      break
    }
  }
}
