import DequeModule
import Foundation
import OrderedCollections
import RegistrationCore

/// The receiving side's rules (SPEC S1-S7) as a value with no I/O: it takes a request and the
/// time, and answers; it processes what is due when told the time. The HTTP front, the SQLite
/// store and virtual-time scenarios all drive this one piece.
public struct EngagementServerCore: Sendable {
  public var settings: ServerSettings
  public private(set) var contacts: OrderedDictionary<String, ServerContact> = [:]
  public private(set) var devices: OrderedDictionary<String, ServerDevice> = [:]
  public private(set) var registrations: OrderedDictionary<Int, ServerRegistration> = [:]
  public private(set) var fault: ServerFault?
  /// Registrations received and not yet processed, ordered by when they are due.
  private var waiting: Deque<(processAt: Instant, id: Int)> = []
  /// Indexes that keep processing O(1) per registration: the device holding each token, and
  /// how many devices each contact has.
  private var deviceByToken: [String: String] = [:]
  private var deviceCount: [String: Int] = [:]
  private var nextRegistrationID = 1
  private var guids: GUIDGenerator

  /// What one call changed, for the store to write.
  public struct Changes: Sendable {
    /// Registrations new or changed; a new one has its body in `receivedBodies`.
    public var registrations: [ServerRegistration] = []
    public var receivedBodies: [Int: [UInt8]] = [:]
    public var devices: [ServerDevice] = []
    public var contacts: [ServerContact] = []
    public var events: [ServerEvent] = []
  }

  public init(settings: ServerSettings, seed: UInt64 = 0x5EED) {
    self.settings = settings
    guids = GUIDGenerator(seed: seed)
  }

  /// Restores a core from what the store held.
  public init(
    settings: ServerSettings, seed: UInt64, contacts: [ServerContact], devices: [ServerDevice],
    registrations: [ServerRegistration]
  ) {
    self.init(settings: settings, seed: seed)
    for contact in contacts { self.contacts[contact.key] = contact }
    for device in devices { store(device) }
    for registration in registrations { self.registrations[registration.id] = registration }
    for registration in registrations where registration.status == .received {
      enqueue(registration)
    }
    nextRegistrationID = (registrations.map(\.id).max() ?? 0) + 1
  }

  // MARK: Receiving (S1, S7)

  /// The stateless half of receiving (S1): the bearer token, the body, the required fields,
  /// the app. It needs no server state, so the HTTP front runs it outside the server's actor,
  /// in parallel; `receive(_:now:)` then applies faults and accepts.
  public enum Validation: Sendable {
    /// The decoded payload and the body as it arrived, which is what the store keeps.
    case valid(RegistrationPayload, body: [UInt8])
    case invalid(ServerAnswer, reason: String)
  }

  public static func validate(authorization: String?, body: [UInt8], settings: ServerSettings)
    -> Validation
  {
    guard let authorization, authorization == "Bearer \(settings.accessToken)" else {
      let reason =
        authorization == nil
        ? "the Authorization header is missing; send \"Bearer <access token>\""
        : "the bearer token does not match the app's access token"
      return .invalid(error(401, "unauthorized", reason), reason: reason)
    }
    let payload: RegistrationPayload
    switch WireDecoding.payload(from: Data(body)) {
    case .failure(let failure):
      return .invalid(error(400, "invalidBody", failure.description), reason: failure.description)
    case .success(let decoded): payload = decoded
    }
    for (name, value) in [
      ("deviceID", payload.deviceID), ("etAppId", payload.etAppId), ("platform", payload.platform),
    ] where value.map(InputRules.trimmed)?.isEmpty ?? true {
      let reason = "the required field \(name) is missing or empty"
      return .invalid(error(400, "missingField", reason, field: name), reason: reason)
    }
    let appID = InputRules.trimmed(payload.etAppId ?? "")
    guard appID == InputRules.trimmed(settings.appID) else {
      let reason = "etAppId \"\(appID)\" is not an app this server knows"
      return .invalid(error(400, "unknownApp", reason, field: "etAppId"), reason: reason)
    }
    return .valid(payload, body: body)
  }

  /// One `POST /device/v1/registration`, validated and received in one go.
  public mutating func receive(authorization: String?, body: [UInt8], now: Instant) -> (
    ServerAnswer, Changes
  ) {
    receive(Self.validate(authorization: authorization, body: body, settings: settings), now: now)
  }

  /// The stateful half of receiving: a fault, when one is set, answers first (S7); then a
  /// refusal from validation; then the 201 (S1, S2).
  public mutating func receive(_ validation: Validation, now: Instant) -> (ServerAnswer, Changes) {
    var changes = Changes()
    if let answer = applyFault(now: now, changes: &changes) { return (answer, changes) }
    let payload: RegistrationPayload
    let body: [UInt8]
    switch validation {
    case .invalid(let answer, let reason):
      if case .respond(let status, _, _) = answer {
        changes.events.append(.refused(status: status, reason: reason))
      }
      return (answer, changes)
    case .valid(let valid, let received):
      payload = valid
      body = received
    }
    let registration = ServerRegistration(
      id: nextRegistrationID, receivedAt: now, processAt: now + settings.processingDelay,
      status: .received, payload: payload)
    nextRegistrationID += 1
    registrations[registration.id] = registration
    enqueue(registration)
    changes.registrations.append(registration)
    changes.receivedBodies[registration.id] = body
    changes.events.append(
      .received(
        registrationID: registration.id, deviceID: payload.deviceID ?? "", status: 201,
        processAt: registration.processAt))
    let answer =
      #"{"processAt":\#(registration.processAt.seconds),"received":true,"registrationId":\#(registration.id)}"#
    return (.respond(status: 201, body: Array(answer.utf8), retryAfter: nil), changes)
  }

  private mutating func applyFault(now: Instant, changes: inout Changes) -> ServerAnswer? {
    guard var active = fault else { return nil }
    if let until = active.until, now >= until {
      fault = nil
      return nil
    }
    changes.events.append(.faulted(active.summary))
    if let remaining = active.remaining {
      active.remaining = remaining - 1
      fault = remaining - 1 > 0 ? active : nil
    }
    switch active.kind {
    case .status(let status, let retryAfter):
      let message = "injected fault: \(status)"
      return .respond(
        status: status, body: Self.errorBody("injectedFault", message, field: nil),
        retryAfter: retryAfter)
    case .hang: return .hang
    case .drop: return .drop
    case .down: return .refuse
    }
  }

  public mutating func setFault(_ fault: ServerFault?) { self.fault = fault }

  /// True while the server refuses connections.
  public func isDown(now: Instant) -> Bool {
    guard let fault, case .down = fault.kind else { return false }
    if let until = fault.until, now >= until { return false }
    return true
  }

  /// The demographics table (S5); nil accepts every attribute.
  public mutating func defineAttributes(_ names: Set<String>?) {
    settings.definedAttributes = names
  }

  // MARK: Processing (S2-S6)

  /// When the next received registration is due for processing.
  public var nextDeadline: Instant? { waiting.first?.processAt }

  /// Keeps `waiting` ordered by due time. Time only moves forward, so this is an append unless
  /// the processing delay was shortened meanwhile.
  private mutating func enqueue(_ registration: ServerRegistration) {
    let entry = (processAt: registration.processAt, id: registration.id)
    if let last = waiting.last, last.processAt > entry.processAt {
      let index = waiting.firstIndex { $0.processAt > entry.processAt } ?? waiting.endIndex
      waiting.insert(entry, at: index)
    } else {
      waiting.append(entry)
    }
  }

  /// Processes every registration whose time has come, oldest first.
  public mutating func processDue(now: Instant) -> Changes {
    var changes = Changes()
    while let first = waiting.first, first.processAt <= now {
      waiting.removeFirst()
      guard var registration = registrations[first.id] else { continue }
      process(&registration, now: now, changes: &changes)
      registrations[first.id] = registration
      changes.registrations.append(registration)
    }
    return changes
  }

  private mutating func process(
    _ registration: inout ServerRegistration, now: Instant, changes: inout Changes
  ) {
    let payload = registration.payload
    let deviceID = InputRules.trimmed(payload.deviceID ?? "")
    registration.processedAt = now
    // S6: malformed registrations are rejected and the device marked inactive.
    if let problem = malformation(payload) {
      registration.status = .rejected
      registration.reason = problem
      if var device = devices[deviceID] {
        device.active = false
        device.inactiveReason = problem
        store(device)
        changes.devices.append(device)
      } else {
        let device = ServerDevice(
          deviceID: deviceID, token: payload.deviceToken, contactKey: nil,
          platform: payload.platform ?? "", active: false, inactiveReason: problem,
          pushEnabled: payload.pushEnabled ?? true, attributes: [:], tags: payload.tags ?? [],
          lastRegistrationID: registration.id, lastRegistrationAt: now)
        store(device)
        changes.devices.append(device)
      }
      changes.events.append(
        .rejected(registrationID: registration.id, deviceID: deviceID, reason: problem))
      return
    }
    // S5: one undefined attribute rejects the whole registration; the device stays as it was.
    if let defined = settings.definedAttributes {
      let known = Set(defined.map { $0.lowercased() })
      let undefined = (payload.attributes ?? []).map(\.key).filter {
        !known.contains($0.lowercased())
      }
      if !undefined.isEmpty {
        let names = undefined.map { "\"\($0)\"" }.joined(separator: ", ")
        let reason =
          "attribute\(undefined.count == 1 ? "" : "s") \(names) not defined in the demographics table"
        registration.status = .rejected
        registration.reason = reason
        changes.events.append(
          .rejected(registrationID: registration.id, deviceID: deviceID, reason: reason))
        return
      }
    }
    // S3: which contact this device belongs to.
    let previous = devices[deviceID]
    let contactKey: String
    var madeUp = false
    if let key = payload.subscriberKey.map(InputRules.trimmed), !key.isEmpty {
      contactKey = key
    } else if let key = previous?.contactKey {
      contactKey = key
    } else if let token = payload.deviceToken, let holder = deviceByToken[token],
      let key = devices[holder]?.contactKey
    {
      contactKey = key
    } else {
      contactKey = guids.next()
      madeUp = true
    }
    if var contact = contacts[contactKey] {
      if contact.orphanedAt != nil {
        contact.orphanedAt = nil
        contacts[contactKey] = contact
        changes.contacts.append(contact)
      }
      madeUp = contact.madeUp
    } else {
      let contact = ServerContact(key: contactKey, madeUp: madeUp, createdAt: now)
      contacts[contactKey] = contact
      changes.contacts.append(contact)
    }
    // The record is the device's whole state (R3.3): attributes sent empty are cleared.
    var attributes = previous?.attributes ?? [:]
    for attribute in payload.attributes ?? [] {
      attributes[attribute.key] = attribute.value.isEmpty ? nil : attribute.value
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
    changes.events.append(
      .processed(
        registrationID: registration.id, deviceID: deviceID, contactKey: contactKey,
        madeUp: madeUp))
    // S4: a device belongs to one contact; the one it left may now have none.
    if let oldKey = previous?.contactKey, oldKey != contactKey, var old = contacts[oldKey],
      deviceCount[oldKey, default: 0] == 0
    {
      old.orphanedAt = now
      contacts[oldKey] = old
      changes.contacts.append(old)
      changes.events.append(
        .orphaned(
          contactKey: oldKey, madeUp: old.madeUp,
          reason: "device \(deviceID) moved to contact \"\(contactKey)\"; no device is left"))
    }
  }

  /// Writes a device and keeps the indexes in step.
  private mutating func store(_ device: ServerDevice) {
    if let old = devices[device.deviceID] {
      if let key = old.contactKey { deviceCount[key, default: 1] -= 1 }
      if let token = old.token, deviceByToken[token] == device.deviceID {
        deviceByToken[token] = nil
      }
    }
    devices[device.deviceID] = device
    if let key = device.contactKey { deviceCount[key, default: 0] += 1 }
    if let token = device.token, device.contactKey != nil { deviceByToken[token] = device.deviceID }
  }

  private func malformation(_ payload: RegistrationPayload) -> String? {
    if let key = payload.subscriberKey, InputRules.trimmed(key).count > 100 {
      return "subscriberKey is \(InputRules.trimmed(key).count) characters; at most 100 are allowed"
    }
    if let platform = payload.platform, Platform(rawValue: platform) == nil {
      return "platform \"\(platform)\" is neither \"iOS\" nor \"Android\""
    }
    return nil
  }

  // MARK: Views

  public func isOrphaned(_ contact: ServerContact) -> Bool { contact.orphanedAt != nil }

  public func stats() -> ServerStats {
    var counts: [ServerRegistration.Status: Int] = [:]
    for registration in registrations.values { counts[registration.status, default: 0] += 1 }
    return ServerStats(
      distinctContacts: contacts.count,
      orphanedContacts: contacts.values.filter { $0.orphanedAt != nil }.count,
      madeUpContacts: contacts.values.filter(\.madeUp).count,
      devices: devices.count, activeDevices: devices.values.filter(\.active).count,
      pending: counts[.received] ?? 0, processed: counts[.processed] ?? 0,
      rejected: counts[.rejected] ?? 0, received: registrations.count)
  }

  /// The devices of a contact.
  public func deviceCount(of contactKey: String) -> Int { deviceCount[contactKey, default: 0] }

  public func devices(of contactKey: String) -> [String] {
    devices.values.filter { $0.contactKey == contactKey }.map(\.deviceID)
  }

  // MARK: JSON answers

  static func error(_ status: Int, _ code: String, _ message: String, field: String? = nil)
    -> ServerAnswer
  {
    .respond(status: status, body: errorBody(code, message, field: field), retryAfter: nil)
  }

  static func errorBody(_ code: String, _ message: String, field: String?) -> [UInt8] {
    var object: [String: Any] = ["error": code, "message": message]
    if let field { object["field"] = field }
    return json(object)
  }

  static func json(_ object: [String: Any]) -> [UInt8] {
    let data = try? JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return Array(data ?? Data("{}".utf8))
  }
}
