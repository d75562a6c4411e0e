/// The registration rules as one state machine, free of I/O (R2-R4, R8). It never reads a
/// clock: every input carries `now`. It never performs a send: it says which send to start,
/// and is told how it ended.
public struct RegistrationMachine: Sendable {
  public let settings: MachineSettings
  public private(set) var state: RegistrationState
  public private(set) var appState: AppState = .foreground
  public private(set) var inFlight: InFlightSend?
  /// The plan last announced as an event, so each change of plan is announced once.
  private var announced: SendPlan?
  private var pendingIndex: [ChangeTarget: Int] = [:]
  /// The pending entry whose window opened first: kept up to date so the plan is O(1).
  private var earliestPending: PendingChange?

  private init(settings: MachineSettings, state: RegistrationState) {
    self.settings = settings
    self.state = state
    rebuildPendingIndex()
  }

  // MARK: Launch

  /// The first launch of an installation (R1.2, R3.1): `deviceID` is the random UUID the
  /// engine made for it, and the initial registration is due at once.
  public static func firstLaunch(
    settings: MachineSettings, deviceID: String, environment: DeviceEnvironment, now: Instant
  ) -> (RegistrationMachine, Step) {
    let device = DeviceFields(
      deviceID: deviceID, registrationId: deviceID.lowercased(), etAppId: settings.etAppId,
      platform: settings.platform, environment: environment)
    var machine = RegistrationMachine(
      settings: settings, state: RegistrationState(record: ContactRecord(device: device)))
    var step = Step()
    step.events.append(.launched(firstLaunch: true, deviceID: deviceID))
    let change = machine.recordChange(
      .initial, summary: "first launch: the whole record", now: now)
    step.events.append(.edited(change))
    machine.finish(&step, now: now)
    step.persist = true
    return (machine, step)
  }

  /// A later launch from the stored state (R1.4). Device fields that differ from the stored
  /// record are changes (R3.2); a send that was in flight at the crash is simply pending.
  public static func relaunch(
    settings: MachineSettings, state: RegistrationState, environment: DeviceEnvironment,
    now: Instant
  ) -> (RegistrationMachine, Step) {
    var machine = RegistrationMachine(settings: settings, state: state)
    var step = Step()
    step.events.append(.launched(firstLaunch: false, deviceID: state.record.device.deviceID))
    var device = machine.state.record.device
    if device.etAppId != settings.etAppId {
      device.etAppId = settings.etAppId
      machine.state.record.device = device
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "etAppId"), summary: "etAppId = \(settings.etAppId)", now: now)))
    }
    if device.platform != settings.platform {
      machine.state.record.device.platform = settings.platform
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "platform"), summary: "platform = \(settings.platform.rawValue)",
            now: now)))
    }
    for field in SystemField.allCases {
      let value = SystemFieldValue.read(field, from: environment)
      guard value != SystemFieldValue.read(field, from: machine.state.record.device.environment)
      else { continue }
      SystemFieldValue.write(value, to: &machine.state.record.device.environment)
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, field.wireName), summary: "\(field.wireName) = \(value)",
            now: now)))
    }
    // hwid is not editable at run time, but a new model after a restore is a change too.
    if environment.hwid != machine.state.record.device.environment.hwid {
      machine.state.record.device.environment.hwid = environment.hwid
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "hwid"), summary: "hwid = \(environment.hwid)", now: now)))
    }
    machine.finish(&step, now: now)
    step.persist = true
    return (machine, step)
  }

  // MARK: Edits

  public mutating func setAppState(_ newState: AppState) { appState = newState }

  /// What `apply` would answer, without changing anything: editors use it to warn before the
  /// user commits (R2.4, R8.2, R8.3).
  public func preview(_ edit: Edit, now: Instant) -> EditOutcome {
    var copy = self
    return copy.apply(edit, now: now).0
  }

  /// Applies one edit through the input rules (R2). A refusal or a no-op changes nothing.
  public mutating func apply(_ edit: Edit, now: Instant) -> (EditOutcome, Step) {
    var step = Step()
    let outcome: EditOutcome
    switch edit {
    case .setContactKey(let raw): outcome = setContactKey(raw, now: now)
    case .clearContactKey: outcome = clearContactKey()
    case .setAttribute(let key, let value): outcome = setAttribute(key, value, now: now)
    case .clearAttribute(let key): outcome = clearAttribute(key, now: now)
    case .addTag(let raw): outcome = addTag(raw, now: now)
    case .removeTag(let raw): outcome = removeTag(raw, now: now)
    case .setSystem(let field, let raw): outcome = setSystem(field, raw, now: now)
    }
    switch outcome {
    case .rejected(let rejection):
      step.events.append(.inputRejected(rejection))
    case .unchanged:
      break
    case .applied(let change, let warnings):
      step.events.append(.edited(change))
      for warning in warnings { step.events.append(.warning(warning)) }
      step.persist = true
      finish(&step, now: now)
    }
    return (outcome, step)
  }

  private mutating func setContactKey(_ raw: String, now: Instant) -> EditOutcome {
    let key: String
    switch InputRules.contactKey(raw) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): key = value
    }
    let old = state.record.contactKey
    if old == key { return .unchanged(reason: "the contact key is already \(quoted(key))") }
    var warnings: [Warning] = []
    if InputRules.isGenericContactKey(key) {
      warnings.append(
        Warning(
          code: .genericContactKey, rule: "R2.4",
          message:
            "\(quoted(key)) is a generic, non-unique contact key: every device that uses it becomes one contact"
        ))
    }
    if let old {
      warnings.append(
        Warning(
          code: .orphanRisk, rule: "R8.3",
          message:
            "the contact key changes from \(quoted(old)) to \(quoted(key)): \(quoted(old)) is orphaned unless another device still has it"
        ))
    } else if state.scheduler.sentWithoutContactKey {
      warnings.append(
        Warning(
          code: .orphanRisk, rule: "R8.2",
          message:
            "this device was registered without a contact key, so the server made one up; setting \(quoted(key)) orphans that contact"
        ))
    }
    warnings += backgroundWarning()
    state.record.contactKey = key
    let change = recordChange(.contactKey, summary: "subscriberKey = \(quoted(key))", now: now)
    return .applied(change, warnings: warnings)
  }

  private func clearContactKey() -> EditOutcome {
    let reason =
      state.record.contactKey == nil
      ? "cannot be cleared (none is set, and once set it can only be changed)"
      : "can be changed but never cleared"
    return .rejected(Rejection(rule: "R2.3", field: "contact key", reason: reason))
  }

  private mutating func setAttribute(_ rawKey: String, _ rawValue: String?, now: Instant)
    -> EditOutcome
  {
    let key: String
    switch InputRules.attributeKey(rawKey, alsoReserved: reservedExtras) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): key = value
    }
    let value: String
    switch InputRules.attributeValue(rawValue, key: key) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let cleaned): value = cleaned
    }
    if state.record.attributes[key] == value {
      return .unchanged(reason: "attribute \(key) is already \(quoted(value))")
    }
    state.record.attributes[key] = value
    state.record.clearedAttributes.remove(key)
    let change = recordChange(
      ChangeTarget(.attribute, key), summary: "\(key) = \(quoted(value))", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  private mutating func clearAttribute(_ rawKey: String, now: Instant) -> EditOutcome {
    let key: String
    switch InputRules.attributeKey(rawKey, alsoReserved: reservedExtras) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): key = value
    }
    guard state.record.attributes.removeValue(forKey: key) != nil else {
      return .unchanged(reason: "attribute \(key) is not set")
    }
    state.record.clearedAttributes.insert(key)
    let change = recordChange(
      ChangeTarget(.attribute, key), summary: "\(key) cleared (sent once as \"\")", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  private mutating func addTag(_ raw: String, now: Instant) -> EditOutcome {
    let tag: String
    switch InputRules.tag(raw) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): tag = value
    }
    if isSystemTag(tag) { return .unchanged(reason: "\(tag) is the SDK's own tag, always present") }
    if state.record.tags.contains(tag) { return .unchanged(reason: "tag \(tag) is already there") }
    state.record.tags.insert(tag)
    let change = recordChange(ChangeTarget(.tag, tag), summary: "+ \(tag)", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  private mutating func removeTag(_ raw: String, now: Instant) -> EditOutcome {
    let tag: String
    switch InputRules.tag(raw) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): tag = value
    }
    if isSystemTag(tag) {
      return .rejected(
        Rejection(
          rule: "R2.7", field: "tag \(tag)",
          reason: "is the SDK's own tag and cannot be removed"))
    }
    guard state.record.tags.remove(tag) != nil else {
      return .unchanged(reason: "tag \(tag) is not there")
    }
    let change = recordChange(ChangeTarget(.tag, tag), summary: "- \(tag)", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  private mutating func setSystem(_ field: SystemField, _ raw: String, now: Instant)
    -> EditOutcome
  {
    let value: SystemFieldValue
    switch SystemFieldValue.parse(field, raw, platform: settings.platform) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let parsed): value = parsed
    }
    if SystemFieldValue.read(field, from: state.record.device.environment) == value {
      return .unchanged(reason: "\(field.wireName) is already \(value)")
    }
    SystemFieldValue.write(value, to: &state.record.device.environment)
    let change = recordChange(
      ChangeTarget(.device, field.wireName), summary: "\(field.wireName) = \(value)", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  private func isSystemTag(_ tag: String) -> Bool {
    settings.systemTags(hwid: state.record.device.environment.hwid).contains(tag)
  }

  private var reservedExtras: [String] { settings.profile.extraReservedAttributeKeys }

  private func backgroundWarning() -> [Warning] {
    guard appState == .background else { return [] }
    return [
      Warning(
        code: .backgroundEdit, rule: "R2.10",
        message:
          "the record was edited while the app is in the background: accepted, but it causes needless registrations"
      )
    ]
  }

  private func quoted(_ text: String) -> String { "\"\(text)\"" }

  /// Adds a change to the queue, folding it into an earlier entry for the same target.
  private mutating func recordChange(_ target: ChangeTarget, summary: String, now: Instant)
    -> PendingChange
  {
    let seq = state.scheduler.nextSeq
    state.scheduler.nextSeq += 1
    if let index = pendingIndex[target] {
      state.pending[index].seq = seq
      state.pending[index].lastAt = now
      state.pending[index].summary = summary
      return state.pending[index]
    }
    let change = PendingChange(
      seq: seq, target: target, firstAt: now, lastAt: now, summary: summary)
    pendingIndex[target] = state.pending.count
    state.pending.append(change)
    if earliestPending.map({ change.firstAt < $0.firstAt }) ?? true { earliestPending = change }
    return change
  }

  private mutating func rebuildPendingIndex() {
    pendingIndex.removeAll(keepingCapacity: true)
    for (index, change) in state.pending.enumerated() { pendingIndex[change.target] = index }
    earliestPending = state.pending.min { $0.firstAt < $1.firstAt }
  }

  // MARK: Sending

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
  private func changeDue(_ first: PendingChange) -> Instant {
    let scheduler = state.scheduler
    switch settings.profile.schedule {
    case .window:
      // The window opens at the first change, but never before the last success (R3.2, R4.4).
      let windowStart = max(first.firstAt, scheduler.lastSuccessAt ?? first.firstAt)
      return windowStart + RetryPolicy.throttle
    case .throttleAlarm:
      // At once: a send inside the throttle is answered on the device (see `tick`).
      return first.firstAt
    case .interval(let batchPause):
      // One send per interval (60 s after a success), after the batching pause, and not
      // while the server's Retry-After lies ahead.
      var due = first.firstAt + batchPause
      if let last = scheduler.lastAttemptAt { due = max(due, last + RetryPolicy.firstInterval) }
      if let until = scheduler.retryAfterUntil { due = max(due, until) }
      return due
    }
  }

  /// Android's device throttle: nothing leaves before 60 s after the last send and after the
  /// last success, nor before the server's Retry-After (SDK-FACTS.md).
  private func throttledUntil(now: Instant) -> Instant? {
    guard case .throttleAlarm = settings.profile.schedule else { return nil }
    let scheduler = state.scheduler
    let until = [
      scheduler.lastAttemptAt.map { $0 + RetryPolicy.throttle },
      scheduler.lastSuccessAt.map { $0 + RetryPolicy.throttle }, scheduler.retryAfterUntil,
    ].compactMap { $0 }.max()
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
    RequiredFields.missing(record: state.record, hasAccessToken: settings.hasAccessToken)
  }

  /// Time has come to `now`: starts the due send, or skips one that would repeat the last
  /// acknowledged record (R3.4).
  public mutating func tick(now: Instant) -> Step {
    var step = Step()
    prepareInitial(now: now)
    guard case .due(let at, let reason, _) = plan, at <= now else { return step }
    if let until = throttledUntil(now: now) { return answerTooEarly(until: until, now: now) }
    let payload = RegistrationPayload(record: state.record, settings: settings)
    if reason != .initial, let acked = state.lastAcknowledged, acked.payload == payload {
      state.pending.removeAll()
      rebuildPendingIndex()
      state.record.clearedAttributes.removeAll()
      state.scheduler.retry = nil
      step.events.append(
        .sendSkipped(
          reason:
            "the record is identical to the one the server acknowledged at \(acked.at.seconds) (\(acked.hash))"
        ))
      step.persist = true
      finish(&step, now: now)
      return step
    }
    let send = InFlightSend(
      id: state.scheduler.nextSendID, attempt: (state.scheduler.retry?.failures ?? 0) + 1,
      reason: reason, payload: payload, body: payload.encodedBytes(), startedAt: now,
      coveredSeq: state.scheduler.nextSeq - 1, clearedKeys: payload.clearedKeys(in: state.record))
    state.scheduler.nextSendID += 1
    state.scheduler.lastAttemptAt = now
    inFlight = send
    step.events.append(
      .sending(sendID: send.id, attempt: send.attempt, reason: reason, payload: payload))
    step.send = send
    step.persist = true
    announced = plan
    return step
  }

  /// Android answers a send attempted inside its throttle itself, as a 429: no request leaves,
  /// and the retry alarm is set as for any failure.
  private mutating func answerTooEarly(until: Instant, now: Instant) -> Step {
    var step = Step()
    let sendID = state.scheduler.nextSendID
    state.scheduler.nextSendID += 1
    let attempt = (state.scheduler.retry?.failures ?? 0) + 1
    let message =
      "too early: answered on the device with 429 (the throttle ends in \(NumberText.compact((until - now).rounded(.up))) s)"
    let retry = fail(status: 429, error: message, retryAfter: nil, now: now)
    step.events.append(
      .failed(
        sendID: sendID, attempt: attempt, status: 429, error: message,
        retryAt: retry.nextAttemptAt, needsFix: false, local: true))
    step.persist = true
    finish(&step, now: now)
    return step
  }

  /// The answer to the send `sendID` arrived (R4). A stale answer (after a restart) is ignored.
  public mutating func sendFinished(sendID: Int, result: SendResult, now: Instant) -> Step {
    var step = Step()
    guard let send = inFlight, send.id == sendID else { return step }
    inFlight = nil
    switch result {
    case .answered(let status, _, _, let token) where RetryPolicy.isSuccess(status: status):
      if let token, !token.isEmpty { state.scheduler.subscriberToken = token }
      acknowledge(send, status: status, now: now)
      step.events.append(
        .sent(sendID: send.id, attempt: send.attempt, status: status, payload: send.payload))
    case .answered(let status, let retryAfter, _, _):
      let retry = fail(status: status, error: nil, retryAfter: retryAfter, now: now)
      step.events.append(
        .failed(
          sendID: send.id, attempt: send.attempt, status: status, error: nil,
          retryAt: retry.nextAttemptAt, needsFix: retry.needsFix))
    case .transportFailed(let message):
      let retry = fail(status: nil, error: message, retryAfter: nil, now: now)
      step.events.append(
        .failed(
          sendID: send.id, attempt: send.attempt, status: nil, error: message,
          retryAt: retry.nextAttemptAt, needsFix: false))
    }
    step.persist = true
    finish(&step, now: now)
    return step
  }

  private mutating func acknowledge(_ send: InFlightSend, status: Int, now: Instant) {
    state.pending.removeAll { $0.seq <= send.coveredSeq }
    rebuildPendingIndex()
    for key in send.clearedKeys where state.record.attributes[key] == nil {
      state.record.clearedAttributes.remove(key)
    }
    state.lastAcknowledged = AcknowledgedRegistration(
      payload: send.payload, hash: BodyHash.digest(send.body, settings.profile.bodyHash), at: now,
      status: status)
    state.scheduler.lastSuccessAt = now
    state.scheduler.retry = nil
    if pendingIndex[.initial] == nil { state.scheduler.initialDueAt = nil }
    if send.payload.subscriberKey == nil { state.scheduler.sentWithoutContactKey = true }
  }

  private mutating func fail(
    status: Int?, error: String?, retryAfter: Double?, now: Instant
  ) -> RetryState {
    let failures = (state.scheduler.retry?.failures ?? 0) + 1
    let profile = settings.profile
    let wait: Double
    switch profile.schedule {
    case .window:
      wait = RetryPolicy.delay(afterFailures: failures, retryAfter: retryAfter)
    case .throttleAlarm:
      // The alarm keeps its own ladder; Retry-After is a separate gate on sending.
      wait = RetryPolicy.backoff(afterFailures: failures)
      if let retryAfter { state.scheduler.retryAfterUntil = now + retryAfter }
    case .interval:
      // The interval doubles with each failure: 120 s after the first.
      wait = max(RetryPolicy.backoff(afterFailures: failures + 1), retryAfter ?? 0)
      if let retryAfter { state.scheduler.retryAfterUntil = now + retryAfter }
    }
    let retry = RetryState(
      failures: failures, nextAttemptAt: now + wait, failedAt: now, lastStatus: status,
      lastError: error,
      needsFix: profile.flagsNeedsFix && RetryPolicy.needsFix(status: status))
    state.scheduler.retry = retry
    return retry
  }

  /// Marks when the initial registration became sendable (R3.1, R3.5).
  private mutating func prepareInitial(now: Instant) {
    guard pendingIndex[.initial] != nil, state.scheduler.initialDueAt == nil else { return }
    if settings.delayRegistrationUntilContactKeyIsSet && state.record.contactKey == nil { return }
    state.scheduler.initialDueAt = now
  }

  /// Ends every step: brings the plan up to date and announces it if it changed.
  private mutating func finish(_ step: inout Step, now: Instant) {
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
          rule: settings.profile.changeReason(openedBy?.description ?? "a change")))
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
