import DequeModule
import Foundation
import OrderedCollections
import RegistrationCore

/// The receiving side's rules (SPEC S1-S7) as a value with no I/O: it takes a request and the
/// time, and answers; it processes what is due when told the time. The HTTP front, the SQLite
/// store and virtual-time scenarios all drive this one piece.
///
/// Memory is bounded by what the server must know, not by its traffic: contacts and devices
/// (S3, S4 need them all), the newest `settings.registrationWindow` registrations, and the
/// bodies of at most `settings.waitingInMemory` registrations waiting for processing. Every
/// figure of `stats()` is a counter kept up to date, never a scan.
public struct EngagementServerCore: Sendable {
  public var settings: ServerSettings
  public internal(set) var contacts: OrderedDictionary<String, ServerContact> = [:]
  public internal(set) var devices: OrderedDictionary<String, ServerDevice> = [:]
  /// The newest registrations, for the views, oldest first.
  public internal(set) var registrations: OrderedDictionary<Int, ServerRegistration> = [:]
  public private(set) var fault: ServerFault?
  /// Registrations received and not yet processed, ordered by when they are due.
  var waiting: Deque<WaitingRegistration> = []
  var waitingWithPayload = 0
  /// The bytes of the waiting bodies kept in memory (`ProcessingRules.keptSize`).
  var waitingPayloadBytes = 0
  /// Indexes that keep processing O(1) per registration: the device holding each token, and
  /// the devices of each contact.
  var deviceByToken: [String: String] = [:]
  var contactDevices: [String: Set<String>] = [:]
  var counters = Counters()
  var nextRegistrationID = 1
  var guids: GUIDGenerator

  struct Counters: Sendable {
    var orphaned = 0
    var madeUp = 0
    var active = 0
    var processed = 0
    var rejected = 0
    var received = 0
  }

  /// What one call changed, for the store to write.
  public struct Changes: Sendable {
    /// Registrations new or changed; a new one has its body in `receivedBodies`.
    public var registrations: [ServerRegistration.Row] = []
    /// The bodies of new registrations, by registration id, in the order received: a list,
    /// not a dictionary, as a request's changes carry one (a dictionary was an allocation
    /// and a hash on the actor each); the store looks them up once a transaction.
    public var receivedBodies: [(id: Int, body: [UInt8])] = []
    public var devices: [ServerDevice] = []
    public var contacts: [ServerContact] = []
    public var events: [ServerEvent] = []

    public init() {}
  }

  public init(settings: ServerSettings, seed: UInt64 = 0x5EED) {
    self.settings = settings
    guids = GUIDGenerator(seed: seed)
  }

  /// Restores a core from what the store held.
  public init(settings: ServerSettings, seed: UInt64, stored: StoredServer) {
    self.init(settings: settings, seed: seed)
    for contact in stored.contacts { put(contact) }
    for device in stored.devices { store(device) }
    for registration in stored.recent { remember(registration) }
    for entry in stored.waiting.sorted(by: { ($0.processAt, $0.id) < ($1.processAt, $1.id) }) {
      var entry = entry
      if let payload = entry.payload, !keepsWaiting(payload) { entry.payload = nil }
      waiting.append(entry)
    }
    counters.processed = stored.processed
    counters.rejected = stored.rejected
    counters.received = stored.received
    nextRegistrationID = stored.lastRegistrationID + 1
  }

  // MARK: Receiving (S1, S7)

  /// The stateless half of receiving (S1): the bearer token, the body, the required fields,
  /// the app. It needs no server state, so the HTTP front runs it outside the server's actor,
  /// in parallel; `receive(_:now:)` then applies faults and accepts.
  public enum Validation: Sendable {
    /// The decoded payload and the body as it arrived, which is what the store keeps.
    case valid(RegistrationPayload, body: [UInt8])
    case invalid(ServerAnswer, refusal: Refusal)

    /// A refusal answered with its error body.
    public static func refused(_ refusal: Refusal, field: String? = nil) -> Validation {
      .invalid(
        .respond(
          status: refusal.status,
          body: errorBody(refusal.kind.rawValue, refusal.reason, field: field), retryAfter: nil),
        refusal: refusal)
    }
  }

  /// S1's first check, which needs no body: a 401 when the token is missing or wrong.
  public static func authorize(_ authorization: String?, settings: ServerSettings) -> Validation? {
    guard let reason = BearerAuthorization.problem(authorization, token: settings.accessToken)
    else { return nil }
    return .refused(Refusal(kind: .unauthorized, status: 401, reason: reason))
  }

  public static func validate(authorization: String?, body: [UInt8], settings: ServerSettings)
    -> Validation
  {
    if let refusal = authorize(authorization, settings: settings) { return refusal }
    let payload: RegistrationPayload
    switch WireDecoding.payload(from: body) {
    case .failure(let failure):
      return .refused(Refusal(kind: .invalidBody, status: 400, reason: failure.description))
    case .success(let decoded): payload = decoded
    }
    if let name = RequiredFields.missing(in: payload).first {
      let reason = "the required field \(name) is missing or empty"
      return .refused(
        Refusal(kind: .missingField, status: 400, reason: reason, payload: payload), field: name)
    }
    let appID = InputRules.trimmed(payload.etAppId ?? "")
    guard appID == InputRules.trimmed(settings.appID) else {
      let reason = "etAppId \"\(appID)\" is not an app this server knows"
      return .refused(
        Refusal(kind: .unknownApp, status: 400, reason: reason, payload: payload), field: "etAppId")
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
    let answer = receive(validation, now: now, into: &changes)
    return (answer, changes)
  }

  /// The same, its changes appended to `changes`: a server gathers many requests' changes
  /// for one transaction, and lists made for each request were three allocations apiece.
  public mutating func receive(_ validation: Validation, now: Instant, into changes: inout Changes)
    -> ServerAnswer
  {
    if let answer = applyFault(now: now, changes: &changes) { return answer }
    let payload: RegistrationPayload
    let body: [UInt8]
    switch validation {
    case .invalid(let answer, let refusal):
      changes.events.append(.refused(status: refusal.status, reason: refusal.summary))
      return answer
    case .valid(let valid, let received):
      // Attribute values are cut on receipt: waiting registrations hold no 100 KB values.
      payload = ProcessingRules.kept(valid)
      body = received
    }
    let registration = ServerRegistration(
      id: nextRegistrationID, receivedAt: now, processAt: now + settings.processingDelay,
      status: .received, payload: payload)
    nextRegistrationID += 1
    counters.received += 1
    remember(registration)
    enqueue(registration)
    changes.registrations.append(registration.row)
    changes.receivedBodies.append((registration.id, body))
    changes.events.append(
      .received(
        registrationID: registration.id, deviceID: payload.deviceID ?? "", status: 201,
        processAt: registration.processAt))
    return .respond(status: 201, body: Self.acceptedBody(registration), retryAfter: nil)
  }

  /// `{"processAt":…,"received":true,"registrationId":…}`, written as bytes into one buffer
  /// (interpolated, then copied out, it was three allocations a request).
  static func acceptedBody(_ registration: ServerRegistration) -> [UInt8] {
    var body: [UInt8] = []
    body.reserveCapacity(96)
    body.append(contentsOf: #"{"processAt":"#.utf8)
    body.append(contentsOf: registration.processAt.seconds.description.utf8)
    body.append(contentsOf: #","received":true,"registrationId":"#.utf8)
    body.append(contentsOf: String(registration.id).utf8)
    body.append(UInt8(ascii: "}"))
    return body
  }

  /// `--any-app`: the app id and access token become these.
  public mutating func adopt(appID: String, accessToken: String) {
    settings.appID = appID
    settings.accessToken = accessToken
  }

  public mutating func applyFault(now: Instant, changes: inout Changes) -> ServerAnswer? {
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

  // MARK: Keeping state and its counters in step

  /// Keeps a registration for the views. The views show the newest `registrationWindow`;
  /// the older ones leave a window at a time, so a registration costs O(1), not a shift of
  /// the whole window.
  mutating func remember(_ registration: ServerRegistration) {
    registrations[registration.id] = registration
    if registrations.count >= 2 * settings.registrationWindow {
      registrations.removeFirst(registrations.count - settings.registrationWindow)
    }
  }

  /// Where the views' window starts in `registrations`.
  var windowOffset: Int { max(0, registrations.count - settings.registrationWindow) }

  /// The id of the oldest registration the views show; nil when there is none.
  public var windowStart: Int? {
    registrations.isEmpty ? nil : registrations.keys[windowOffset]
  }

  /// Writes a contact and keeps the orphan and made-up counters in step.
  mutating func put(_ contact: ServerContact) {
    if let old = contacts[contact.key] {
      if old.orphanedAt != nil { counters.orphaned -= 1 }
      if old.madeUp { counters.madeUp -= 1 }
    }
    contacts[contact.key] = contact
    if contact.orphanedAt != nil { counters.orphaned += 1 }
    if contact.madeUp { counters.madeUp += 1 }
  }

  /// Writes a device and keeps the indexes and the active counter in step.
  mutating func store(_ device: ServerDevice) {
    if let old = devices[device.deviceID] {
      if let key = old.contactKey { contactDevices[key]?.remove(old.deviceID) }
      if let token = old.token, deviceByToken[token] == device.deviceID {
        deviceByToken[token] = nil
      }
      if old.active { counters.active -= 1 }
    }
    devices[device.deviceID] = device
    if let key = device.contactKey { contactDevices[key, default: []].insert(device.deviceID) }
    if let token = device.token, device.contactKey != nil { deviceByToken[token] = device.deviceID }
    if device.active { counters.active += 1 }
  }

  // MARK: Views

  /// Every figure is a counter: answering costs the same at ten registrations or ten million.
  public func stats() -> ServerStats {
    ServerStats(
      distinctContacts: contacts.count, orphanedContacts: counters.orphaned,
      madeUpContacts: counters.madeUp, devices: devices.count, activeDevices: counters.active,
      pending: waiting.count, processed: counters.processed, rejected: counters.rejected,
      received: counters.received)
  }

  /// How many devices a contact has.
  public func deviceCount(of contactKey: String) -> Int { contactDevices[contactKey]?.count ?? 0 }

  public func devices(of contactKey: String) -> [String] {
    contactDevices[contactKey].map { $0.sorted() } ?? []
  }

  /// The next registrations due for processing, soonest first.
  public func nextWaiting(_ count: Int) -> [WaitingRegistration] { Array(waiting.prefix(count)) }

  // MARK: JSON answers

  static func error(_ status: Int, _ code: String, _ message: String, field: String? = nil)
    -> ServerAnswer
  {
    .respond(status: status, body: errorBody(code, message, field: field), retryAfter: nil)
  }

  public static func errorBody(_ code: String, _ message: String, field: String?) -> [UInt8] {
    var object: [String: Any] = ["error": code, "message": message]
    if let field { object["field"] = field }
    return json(object)
  }

  static func json(_ object: [String: Any]) -> [UInt8] {
    let data = try? JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return JSONText.escapingInvisibles(Array(data ?? Data("{}".utf8)))
  }
}
