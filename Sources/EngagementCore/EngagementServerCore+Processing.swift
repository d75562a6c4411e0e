import RegistrationCore

/// Processing (S2-S6): what becomes of a registration after its 201.
extension EngagementServerCore {
  /// When the next received registration is due for processing.
  public var nextDeadline: Instant? { waiting.first?.processAt }

  /// Keeps `waiting` ordered by due time. Time only moves forward, so this is an append unless
  /// the processing delay was shortened meanwhile.
  mutating func enqueue(_ registration: ServerRegistration) {
    let keepsPayload = keepsWaiting(registration.payload)
    let entry = WaitingRegistration(
      id: registration.id, receivedAt: registration.receivedAt,
      processAt: registration.processAt, payload: keepsPayload ? registration.payload : nil)
    if let last = waiting.last, last.processAt > entry.processAt {
      let index = waiting.firstIndex { $0.processAt > entry.processAt } ?? waiting.endIndex
      waiting.insert(entry, at: index)
    } else {
      waiting.append(entry)
    }
  }

  /// The ids due by `now` whose bodies wait in the store only: what `processDue` will ask
  /// `readBack` for.
  public func dueWithoutPayload(now: Instant) -> [Int] {
    waiting.prefix { $0.processAt <= now }.filter { $0.payload == nil }.map(\.id)
  }

  /// Processes every registration whose time has come, oldest first. `readBack` gives the
  /// payload of one that waited in the store only; when it cannot, the registration is
  /// rejected with the reason, never dropped in silence.
  public mutating func processDue(
    now: Instant,
    readBack: (Int) -> Result<RegistrationPayload, StoredBodyUnreadable> = { _ in
      .failure(StoredBodyUnreadable("its body was not kept"))
    }
  ) -> Changes {
    var changes = Changes()
    while let first = waiting.first, first.processAt <= now {
      waiting.removeFirst()
      var registration = ServerRegistration(
        id: first.id, receivedAt: first.receivedAt, processAt: first.processAt,
        status: .received, payload: RegistrationPayload())
      if let payload = first.payload {
        waitingWithPayload -= 1
        waitingPayloadBytes -= ProcessingRules.keptSize(payload)
        registration.payload = payload
        process(&registration, now: now, changes: &changes)
      } else {
        switch readBack(first.id) {
        case .success(let payload):
          registration.payload = payload
          process(&registration, now: now, changes: &changes)
        case .failure(let problem):
          registration.processedAt = now
          reject(&registration, "the body could not be read back from the store: \(problem)")
          changes.events.append(
            .rejected(registrationID: first.id, deviceID: "", reason: registration.reason ?? ""))
        }
      }
      if registrations[first.id] != nil { registrations[first.id] = registration }
      changes.registrations.append(registration.row)
    }
    return changes
  }

  /// Whether a waiting body stays in memory, within both budgets; counts it if so.
  mutating func keepsWaiting(_ payload: RegistrationPayload) -> Bool {
    let size = ProcessingRules.keptSize(payload)
    guard waitingWithPayload < settings.waitingInMemory,
      waitingPayloadBytes + size <= settings.waitingBytesInMemory
    else { return false }
    waitingWithPayload += 1
    waitingPayloadBytes += size
    return true
  }

  private mutating func reject(_ registration: inout ServerRegistration, _ reason: String) {
    registration.status = .rejected
    registration.reason = reason
    counters.rejected += 1
  }

  private mutating func process(
    _ registration: inout ServerRegistration, now: Instant, changes: inout Changes
  ) {
    let payload = registration.payload
    let deviceID = InputRules.trimmed(payload.deviceID ?? "")
    registration.processedAt = now
    if let refusal = ProcessingRules.refusal(payload, definedAttributes: settings.definedAttributes)
    {
      refuse(&registration, refusal, deviceID: deviceID, now: now, changes: &changes)
      return
    }
    let previous = devices[deviceID]
    let (contactKey, madeUp) = contact(
      for: payload, previous: previous, now: now, changes: &changes)
    // The record is the device's whole state (R3.3): attributes sent empty are cleared.
    var attributes = previous?.attributes ?? [:]
    for attribute in payload.attributes ?? [] {
      attributes[attribute.key] =
        attribute.value.isEmpty ? nil : ProcessingRules.kept(attribute.value)
    }
    let device = ServerDevice(
      deviceID: deviceID, token: payload.deviceToken, contactKey: contactKey,
      platform: payload.platform ?? "", active: true, inactiveReason: nil,
      pushEnabled: payload.pushEnabled ?? true, attributes: attributes,
      tags: payload.tags ?? [], lastRegistrationID: registration.id, lastRegistrationAt: now)
    store(device)
    changes.devices.append(device)
    registration.status = .processed
    registration.contactKey = contactKey
    counters.processed += 1
    changes.events.append(
      .processed(
        registrationID: registration.id, deviceID: deviceID, contactKey: contactKey,
        madeUp: madeUp))
    // S4: a device belongs to one contact; the one it left may now have none.
    if let oldKey = ContactRules.orphaned(
      previous: previous?.contactKey, now: contactKey, devicesLeftIn: { deviceCount(of: $0) }),
      var old = contacts[oldKey]
    {
      old.orphanedAt = now
      put(old)
      changes.contacts.append(old)
      changes.events.append(
        .orphaned(
          contactKey: oldKey, madeUp: old.madeUp,
          reason: "device \(deviceID) moved to contact \"\(contactKey)\"; no device is left"))
    }
  }

  /// S5, S6: a registration processing refuses. A malformed one marks the device inactive; one
  /// with an undefined attribute leaves the device as it was.
  private mutating func refuse(
    _ registration: inout ServerRegistration, _ refusal: ProcessingRules.Refusal,
    deviceID: String, now: Instant, changes: inout Changes
  ) {
    let payload = registration.payload
    reject(&registration, refusal.reason)
    changes.events.append(
      .rejected(registrationID: registration.id, deviceID: deviceID, reason: refusal.reason))
    guard case .malformed(let problem) = refusal else { return }
    var device =
      devices[deviceID]
      ?? ServerDevice(
        deviceID: deviceID, token: payload.deviceToken, contactKey: nil,
        platform: payload.platform ?? "", active: false, inactiveReason: problem,
        pushEnabled: payload.pushEnabled ?? true, attributes: [:], tags: payload.tags ?? [],
        lastRegistrationID: registration.id, lastRegistrationAt: now)
    device.active = false
    device.inactiveReason = problem
    store(device)
    changes.devices.append(device)
  }

  /// S3, R8: the contact this registration puts its device in, made up when nothing names
  /// one; a contact the device comes back to is no longer orphaned.
  private mutating func contact(
    for payload: RegistrationPayload, previous: ServerDevice?, now: Instant,
    changes: inout Changes
  ) -> (key: String, madeUp: Bool) {
    let tokenHolder = payload.deviceToken.flatMap { deviceByToken[$0] }
    let known = ContactRules.contact(
      sent: payload, current: previous?.contactKey,
      tokenHolderContact: tokenHolder.flatMap { devices[$0]?.contactKey })
    let key = known ?? guids.next()
    guard var contact = contacts[key] else {
      let contact = ServerContact(key: key, madeUp: known == nil, createdAt: now)
      put(contact)
      changes.contacts.append(contact)
      return (key, known == nil)
    }
    if contact.orphanedAt != nil {
      contact.orphanedAt = nil
      put(contact)
      changes.contacts.append(contact)
    }
    return (key, contact.madeUp)
  }
}
