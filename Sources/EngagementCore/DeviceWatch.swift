import DequeModule
import Foundation
import RegistrationCore

/// What the HTTP front saw of a request besides its body.
public struct RequestFacts: Sendable, Hashable {
  public var userAgent: String?
  public var sdkVersion: String?
  public var subscriberToken: String?

  public init(userAgent: String? = nil, sdkVersion: String? = nil, subscriberToken: String? = nil) {
    self.userAgent = userAgent
    self.sdkVersion = sdkVersion
    self.subscriberToken = subscriberToken
  }
}

/// Every device that registered with the local server, as a real app's QA sees it: its
/// timeline (bounded), its findings (counted), the SDK it runs, the subscriber token handed to
/// it and whether it comes back, and its calls to the other device routes. Pure: its tokens
/// come from the source it is given (`makeToken`), the system's random one only at the edge
/// (`LocalEngagementServer.pooledToken`).
public struct DeviceWatch: Sendable {
  public struct Device: Sendable {
    public var deviceID: String
    public var identity: ClientIdentity
    public var firstSeen: Instant
    public var lastSeen: Instant
    /// The newest registrations, oldest first; only the newest few keep their bodies.
    public var registrations: [WatchedRegistration] = []
    public var registrationCount = 0
    public var findingCounts: [FindingCode: Int] = [:]
    public var severityCounts: [Finding.Severity: Int] = [:]
    /// The severities each code was found with, over every registration (the timeline keeps
    /// only the newest): what a CI gate decides on.
    public var codeSeverities: [FindingCode: Set<Finding.Severity>] = [:]
    /// The `X-Subscriber-Token` this server handed out.
    public var subscriberToken: String
    /// Nil until a request after the token was handed out could have sent it back.
    public var tokenReturned: Bool?
    /// Whether an answer the app took (a 2xx) carried the token: only then must later
    /// requests send it back. A refused first try hands out nothing.
    public internal(set) var tokenHandedOut = false
    /// Calls to the other device routes, by route.
    public var otherRoutes: [String: Int] = [:]
    /// The newest Mobile App Messaging calls, oldest first (`timelineLimit`).
    public var mobileAppMessaging: [MobileAppMessagingEvent] = []
    /// The tenant's answers to "did it arrive?", oldest first (`readBacksKept`).
    public var readBacks: [ReadBack] = []
    /// When the tenant is next asked about this device, nil when no lookup waits.
    public internal(set) var readBackDue: Instant?
    /// Requests the server refused (S1), and the newest refusal with its fix.
    public var refusedCount = 0
    /// Refusals for a wrong token or app id counted in the findings since the last request
    /// the server took (`forgiveSetupRefusals`).
    var setupRefusalsCounted = 0
    public var lastRefusal: Refusal? {
      get { refusal?.value }
      set { refusal = newValue.map(RefusalBox.init) }
    }
    /// Held by reference: a refusal keeps its body's fields (320 bytes), which inline made
    /// every device, refused or not, twice the size to move in and out of the table.
    var refusal: RefusalBox?
    /// When a refusal of this device was last said in the server's output.
    var refusalAnnouncedAt: Instant?
    /// When this device's findings were last said in the server's output (the newest few).
    var findingsAnnouncedAt: [Instant] = []
    /// What the judge remembers between this device's registrations.
    public internal(set) var memory = JudgeMemory()
    /// When the watch last stored it (a counter): its place in the order last seen.
    var storedAt = 0

    public var lastSent: RegistrationPayload? { memory.lastSent }
    public var lastAcknowledged: RegistrationPayload? { memory.lastAcknowledged }

    /// The earliest this device's SDK could register next: what the judge holds it to, and
    /// what the receiver's countdown shows.
    public var nextSend: NextSend? { identity.profile.earliestNext(after: memory.observed) }
  }

  /// Registrations kept per device, and how many of the newest keep their bodies.
  public static let timelineLimit = 50
  public static let bodiesKept = 5
  /// Devices kept; the one seen longest ago is dropped first.
  public static let deviceLimit = 5_000
  /// Dropped devices remembered, so their timeline answers "dropped", not "never registered".
  public static let droppedLimit = 50_000
  /// Bytes of a body kept for the timeline (a registration is a few hundred).
  public static let bodyLimit = 8 << 10

  /// Every device kept, by id. `newest(_:)` gives them in the order last seen.
  public internal(set) var devices = DeviceTable()
  /// The stores in the order they happened (each device keeps when it was last stored, its
  /// `storedAt`): a device seen again is queued again, its older entry left stale and
  /// skipped. Moving a device to the end is O(1), where an ordered dictionary shifted every
  /// device after it.
  private var recency: Deque<(order: Int, deviceID: String)> = []
  private var stores = 0
  /// Devices whose timeline was dropped for the limit, by the `StableHash` of their id, each
  /// with the number of its drop; the queue keeps them in that order, and an entry whose
  /// device came back is left in it, stale, rather than searched for. Keyed by hash, not by
  /// id: 50,000 ids kept alive were as many strings to hold and to free. Two ids of one hash
  /// (about one chance in 10^10 among 50,000 by chance; an app could make one on purpose, the
  /// hash is not a cryptographic one) would make a device that never registered read
  /// "dropped", or a returning one clear the other's mark: a word in a timeline, no more.
  private var dropped: [UInt64: Int] = [:]
  private var droppedOrder: Deque<(drop: Int, key: UInt64)> = []
  private var drops = 0
  /// Devices dropped for the limit, not yet let go (`takeEvicted`).
  var evicted = Evicted()
  let makeToken: @Sendable () -> String
  /// Devices kept before the one seen longest ago is dropped: `deviceLimit` for a live
  /// receiver; a judged capture keeps every device it holds.
  private let keptDevices: Int
  /// Dropped devices remembered (`droppedLimit`, fewer in tests).
  private let rememberedDrops: Int

  /// `makeToken` hands out subscriber tokens, as the engine's `makeDeviceID` names a device:
  /// the live server passes the system's random source, a capture's judge none (the tenant
  /// issued them), a test a seeded or fixed one.
  public init(
    makeToken: @escaping @Sendable () -> String,
    keptDevices: Int = DeviceWatch.deviceLimit, rememberedDrops: Int = DeviceWatch.droppedLimit
  ) {
    self.makeToken = makeToken
    self.keptDevices = keptDevices
    self.rememberedDrops = rememberedDrops
  }

  /// Whether `deviceID`'s timeline was dropped to keep within `deviceLimit`.
  public func wasDropped(_ deviceID: String) -> Bool { dropped[StableHash.of(deviceID)] != nil }

  /// Records a registration and judges it. Returns the subscriber token to answer with.
  public mutating func record(_ registration: ReceivedRegistration) -> String {
    let (deviceID, received, facts, now) =
      (registration.deviceID, registration.payload, registration.facts, registration.at)
    let (status, refusal) = (registration.status, registration.refusal)
    // What the watch remembers of a body (5,000 devices' last ones) holds values cut as the
    // server keeps them; the judge compares cut with cut, fingerprints included.
    let payload = received.map(ProcessingRules.kept)
    // Taken out while it changes, so its timeline is changed in place, not copied.
    let identity = identity(facts, bodyPlatform: payload?.platform)
    var device =
      devices.take(deviceID)
      ?? Device(
        deviceID: deviceID, identity: identity, firstSeen: now, lastSeen: now,
        subscriberToken: makeToken())
    // A token can only come back once a 2xx handed it out (a refused first try, a 503 or a
    // capture's tenant may have handed out none).
    if device.tokenHandedOut {
      let returned = facts.subscriberToken == device.subscriberToken
      device.tokenReturned = (device.tokenReturned ?? true) && returned
    }
    if facts.userAgent != nil { device.identity = identity }
    let changes =
      // The reason; its fix is the finding's (said once, under it).
      refusal.map { ["refused: \($0.reason)"] }
      ?? payload.map { PayloadDiff.changes(from: device.lastSent, to: $0) } ?? []
    var findings: [Finding]
    if let refusal {
      // A refused request is the setup's or a stray client's: it is not a send the SDK's
      // schedule counts (the app is rebuilt with the right token and starts afresh), so the
      // judge neither judges nor remembers it.
      findings = [refusal.finding]
      device.refusedCount += 1
      device.lastRefusal = refusal
      if refusal.isSetups { device.setupRefusalsCounted += 1 }
    } else {
      // The server (or a capture's tenant) answered: the token and app were right.
      if status != nil { device.forgiveSetupRefusals() }
      findings = RegistrationJudge.judge(
        JudgedRequest(
          payload: payload, at: now, status: status, retryAfter: registration.retryAfter,
          profile: device.identity.profile),
        memory: &device.memory, server: registration.server)
      // How the body was read, beside when it was sent: a key twice is read as the tenant
      // reads it, and said.
      if let duplicated = Finding.duplicateKeys(in: received) { findings.append(duplicated) }
    }
    // From the registration before that the server took: a refused try is no send of the
    // app's, so the first accepted one after it reads as the first.
    let previous =
      refusal == nil
      ? device.registrations.last { !$0.refused } : nil
    var entry = WatchedRegistration(
      at: now, interval: previous.map { now - $0.at }, status: status, retryAfter: nil,
      body: Self.kept(registration.body), changes: changes, findings: findings,
      local: registration.local, subscriberTokenSent: facts.subscriberToken != nil)
    entry.take(registration.retryAfter, readBy: device.identity.profile)
    device.append(entry)
    // Relayed, the tenant hands the token out: the one the app must send back.
    if let issuedToken = registration.issuedToken { device.subscriberToken = issuedToken }
    if refusal == nil, let status, RetryPolicy.isSuccess(status: status),
      !device.subscriberToken.isEmpty
    {
      device.tokenHandedOut = true
    }
    device.lastSeen = now
    store(device)
    return device.subscriberToken
  }

  /// A registration the server refused (S1): it joins its device's timeline, or, when the
  /// body did not say which device, a stand-in for the client named by its User-Agent.
  /// Returns the device to name when saying so in the server's output, at most once a minute
  /// a device; nil when it was said too recently.
  public mutating func recordRefusal(_ refusal: Refusal, facts: RequestFacts, at now: Instant)
    -> String?
  {
    let named = refusal.payload?.deviceID.map(InputRules.trimmed) ?? ""
    let deviceID = named.isEmpty ? Self.standIn(for: facts) : named
    _ = record(
      ReceivedRegistration(
        deviceID: deviceID, payload: refusal.payload, body: [], facts: facts, at: now,
        status: refusal.status,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in true }),
        refusal: refusal))
    let announced = devices.modify(deviceID) { device -> Bool in
      if let said = device.refusalAnnouncedAt, now - said < 60 { return false }
      device.refusalAnnouncedAt = now
      return true
    }
    return announced == true ? deviceID : nil
  }

  /// Findings to say in the server's output: up to this many a device a minute.
  public static let findingsAnnouncedPerMinute = 3

  /// The violations and warnings of `deviceID`'s newest registration that may be said in the
  /// server's output now: at most `findingsAnnouncedPerMinute` a device in any minute, so an
  /// app in a loop cannot flood it (the API and the timeline keep every one).
  public mutating func findingsToAnnounce(of deviceID: String, at now: Instant) -> [Finding] {
    // Worked on in place: most registrations have nothing to say, and a copy of the device
    // was a retain and a release of each of its parts.
    devices.modify(deviceID) { $0.announceFindings(at: now) } ?? []
  }

  /// "? com.example.app (Android)": a client whose refused request named no device.
  static func standIn(for facts: RequestFacts) -> String {
    let identity = ClientIdentity.read(
      userAgent: facts.userAgent, sdkVersionHeader: facts.sdkVersion, bodyPlatform: nil)
    let name = identity.bundleID ?? facts.userAgent.map { String($0.prefix(40)) } ?? "no User-Agent"
    return "? \(name)\(identity.platform.map { " (\($0))" } ?? "")"
  }

  /// The body as the timeline keeps it: whole, or its first `bodyLimit` bytes and a note.
  static func kept(_ body: [UInt8]) -> String {
    guard body.count > bodyLimit else { return String(decoding: body, as: UTF8.self) }
    return String(decoding: body.prefix(bodyLimit), as: UTF8.self)
      + "… (\(body.count) bytes; the first \(bodyLimit) kept)"
  }

  /// A call to one of the other device routes (sync, inbox, analytics, fences).
  /// `body` and `status` matter to Mobile App Messaging calls, which are shown with their
  /// fields (and make their device when it has not registered yet); the others are counted.
  public mutating func recordOther(
    route: String, deviceID: String?, facts: RequestFacts, at now: Instant, body: [UInt8] = [],
    status: Int? = 200
  ) {
    guard let deviceID else { return }
    if let kind = MobileAppMessagingEvent.kind(ofRoute: route) {
      recordMobileAppMessaging(
        route: route, kind: kind, deviceID: deviceID, body: body, facts: facts, at: now,
        status: status)
      return
    }
    guard var device = devices.take(deviceID) else { return }
    device.otherRoutes[route, default: 0] += 1
    device.lastSeen = now
    // Whether the SDKs send the token on these routes is not known: only a wrong one counts.
    if device.tokenHandedOut, let token = facts.subscriberToken {
      device.tokenReturned = (device.tokenReturned ?? true) && token == device.subscriberToken
    }
    store(device)
  }

  private struct IdentityKey: Hashable {
    var userAgent: String?
    var sdkVersion: String?
    var platform: String?
  }
  /// User-Agents read so far: a fleet of one app sends a handful, and reading one is a parse.
  private var identities: [IdentityKey: ClientIdentity] = [:]

  mutating func identity(_ facts: RequestFacts, bodyPlatform: String?) -> ClientIdentity {
    let key = IdentityKey(
      userAgent: facts.userAgent, sdkVersion: facts.sdkVersion, platform: bodyPlatform)
    if let known = identities[key] { return known }
    let read = ClientIdentity.read(
      userAgent: facts.userAgent, sdkVersionHeader: facts.sdkVersion, bodyPlatform: bodyPlatform)
    if identities.count >= 1_024 { identities.removeAll(keepingCapacity: true) }
    identities[key] = read
    return read
  }

  /// Keeps `device` as the one seen last; past the limit, drops the one seen longest ago.
  /// Taken (`consuming`): the device moves into the table, not copied field by field.
  mutating func store(_ device: consuming Device) {
    let id = device.deviceID
    stores += 1
    device.storedAt = stores
    if devices.count == 1_024, keptDevices <= Self.deviceLimit { devices.reserve(keptDevices) }
    devices.put(device)
    recency.append((stores, id))
    if !dropped.isEmpty { dropped[StableHash.of(id)] = nil }
    while devices.count > keptDevices, let oldest = removeOldest() {
      let key = StableHash.of(oldest.deviceID)
      drops += 1
      dropped[key] = drops
      droppedOrder.append((drops, key))
      while dropped.count > rememberedDrops, let forgotten = droppedOrder.popFirst() {
        if dropped[forgotten.key] == forgotten.drop { dropped[forgotten.key] = nil }
      }
      if evicted.devices.count < Evicted.held { evicted.devices.append(oldest) }
    }
    if droppedOrder.count > 2 * dropped.count + 1_024 {
      droppedOrder = Deque(droppedOrder.filter { dropped[$0.key] == $0.drop })
    }
    // Stale entries (devices seen again) are swept once they outnumber the live ones.
    if recency.count > 2 * devices.count + 1_024 {
      recency = Deque(recency.filter { devices.storedAt($0.deviceID) == $0.order })
    }
  }

  /// The device seen longest ago, out of the table and the queue.
  private mutating func removeOldest() -> Device? {
    while let first = recency.popFirst() {
      // A stale entry (the device was seen again since) is passed over.
      guard devices.storedAt(first.deviceID) == first.order else { continue }
      return devices.remove(first.deviceID)
    }
    return nil
  }

  /// The `limit` devices seen most recently, the newest first.
  public func newest(_ limit: Int) -> [Device] {
    var found: [Device] = []
    for entry in recency.reversed() {
      guard found.count < limit else { break }
      guard devices.storedAt(entry.deviceID) == entry.order, let device = devices[entry.deviceID]
      else { continue }
      found.append(device)
    }
    return found
  }
}
