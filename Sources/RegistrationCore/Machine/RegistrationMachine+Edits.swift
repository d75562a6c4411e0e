/// Edits through the input rules (R2): refusals, no-ops, the queue of pending changes.
extension RegistrationMachine {
  /// The app comes to the foreground or goes to the background. On Android the background
  /// deletes the device throttle and sends a pending change at once (SDK-FACTS).
  public mutating func setAppState(_ newState: AppState, now: Instant) -> Step {
    var step = Step()
    appState = newState
    if newState == .background, settings.profile.backgroundSendsPending, !state.pending.isEmpty,
      inFlight == nil
    {
      backgroundFlushAt = now
    }
    finish(&step, now: now)
    return step
  }

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

  mutating func setContactKey(_ raw: String, now: Instant) -> EditOutcome {
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
    // Orphaned is the contact the server holds for this device: the key of the last
    // registration it acknowledged, not one set here that never got through.
    let held = state.lastAcknowledged.map { $0.payload.subscriberKey }
    if let held, let heldKey = held {
      if heldKey != key {
        warnings.append(
          Warning(
            code: .orphanRisk, rule: "R8.3",
            message:
              "the contact key changes from \(quoted(heldKey)) to \(quoted(key)): \(quoted(heldKey)) is orphaned unless another device still has it"
          ))
      }
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

  func clearContactKey() -> EditOutcome {
    let reason =
      state.record.contactKey == nil
      ? "cannot be cleared (none is set, and once set it can only be changed)"
      : "can be changed but never cleared"
    return .rejected(Rejection(rule: "R2.3", field: "contact key", reason: reason))
  }

  mutating func setAttribute(_ rawKey: String, _ rawValue: String?, now: Instant)
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
    if settings.profile.attributeKeysCaseInsensitive {
      // iOS replaces an attribute whatever the case of its key.
      for existing in state.record.attributes.keys
      where existing != key && existing.lowercased() == key.lowercased() {
        state.record.attributes.removeValue(forKey: existing)
      }
    }
    state.record.attributes[key] = value
    state.record.clearedAttributes.remove(key)
    let change = recordChange(
      ChangeTarget(.attribute, key), summary: "\(key) = \(quoted(value))", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  mutating func clearAttribute(_ rawKey: String, now: Instant) -> EditOutcome {
    let key: String
    switch InputRules.attributeKey(rawKey, alsoReserved: reservedExtras) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): key = value
    }
    let stored =
      settings.profile.attributeKeysCaseInsensitive
      ? state.record.attributes.keys.first { $0.lowercased() == key.lowercased() } ?? key : key
    guard state.record.attributes.removeValue(forKey: stored) != nil else {
      return .unchanged(reason: "attribute \(key) is not set")
    }
    state.record.clearedAttributes.insert(stored)
    let kept =
      settings.profile.keepsClearedAttributes ? "sent as \"\" from now on" : "sent once as \"\""
    let change = recordChange(
      ChangeTarget(.attribute, stored), summary: "\(stored) cleared (\(kept))", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  mutating func addTag(_ raw: String, now: Instant) -> EditOutcome {
    let tag: String
    switch InputRules.tag(raw, maxLength: settings.profile.tagMaxLength) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): tag = value
    }
    if isSystemTag(tag) { return .unchanged(reason: "\(tag) is the SDK's own tag, always present") }
    if storedTag(tag) != nil { return .unchanged(reason: "tag \(tag) is already there") }
    state.record.tags.insert(tag)
    let change = recordChange(ChangeTarget(.tag, tag), summary: "+ \(tag)", now: now)
    return .applied(change, warnings: backgroundWarning())
  }

  mutating func removeTag(_ raw: String, now: Instant) -> EditOutcome {
    var tag: String
    switch InputRules.tag(raw, maxLength: settings.profile.tagMaxLength) {
    case .failure(let rejection): return .rejected(rejection)
    case .success(let value): tag = value
    }
    tag = storedTag(tag) ?? tag
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

  mutating func setSystem(_ field: SystemField, _ raw: String, now: Instant)
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

  /// Whether `tag` is one of the SDK's own: Android compares them without regard to case, and
  /// iOS its model name (SDK-FACTS: input rules).
  func isSystemTag(_ tag: String) -> Bool {
    let own = settings.systemTags(hwid: state.record.device.environment.hwid)
    if own.contains(tag) { return true }
    let model =
      settings.profile.tagsDeviceModel
      ? SDKProfile.deviceModel(fromHardwareID: state.record.device.environment.hwid) : nil
    let loose = settings.profile.tagsCaseInsensitive ? own : model.map { [$0] } ?? []
    return loose.contains { $0.lowercased() == tag.lowercased() }
  }

  /// The app's tag as the record holds it: the same spelling, or on Android any case.
  func storedTag(_ tag: String) -> String? {
    if state.record.tags.contains(tag) { return tag }
    guard settings.profile.tagsCaseInsensitive else { return nil }
    return state.record.tags.first { $0.lowercased() == tag.lowercased() }
  }

  var reservedExtras: [String] { settings.profile.extraReservedAttributeKeys }

  func backgroundWarning() -> [Warning] {
    guard appState == .background else { return [] }
    return [
      Warning(
        code: .backgroundEdit, rule: "R2.10",
        message:
          "the record was edited while the app is in the background: accepted, but it causes needless registrations"
      )
    ]
  }

  func quoted(_ text: String) -> String { "\"\(text)\"" }

  /// Adds a change to the queue, folding it into an earlier entry for the same target.
  mutating func recordChange(_ target: ChangeTarget, summary: String, now: Instant)
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

  mutating func rebuildPendingIndex() {
    pendingIndex.removeAll(keepingCapacity: true)
    for (index, change) in state.pending.enumerated() { pendingIndex[change.target] = index }
    earliestPending = state.pending.min { $0.firstAt < $1.firstAt }
  }

}
