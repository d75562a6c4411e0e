import RegistrationCore

/// The local server's settings: one app, as `regctl serve --app-id --access-token` makes it.
public struct ServerSettings: Hashable, Sendable {
  public var appID: String
  public var accessToken: String
  /// How long after the 201 a registration is processed (S2): 5 minutes by default.
  public var processingDelay: Double
  /// The demographics table (S5): nil accepts every attribute, as a fresh local server does.
  public var definedAttributes: Set<String>?
  /// The tenant's attribute set the table was read from (`--tenant`: "MobilePush
  /// Demographics"); nil for a table typed here. Findings name it, with the fix in the tenant.
  public var demographicsSet: String?
  /// How many of the newest registrations the views keep in memory. Older ones are counted,
  /// and stay in the SQLite file when there is one; the views never grow past this.
  public var registrationWindow: Int
  /// How many registrations waiting for processing keep their body in memory. Past this they
  /// wait in the store only and are read back when their time comes, so a burst of traffic
  /// costs disk, not memory.
  public var waitingInMemory: Int
  /// And at most this many bytes of them: past either, a waiting body is read back from the
  /// store when its time comes.
  public var waitingBytesInMemory = 64 << 20

  public init(
    appID: String, accessToken: String, processingDelay: Double = 300,
    definedAttributes: Set<String>? = nil, registrationWindow: Int = 1000,
    waitingInMemory: Int = 10_000
  ) {
    self.appID = appID
    self.accessToken = accessToken
    self.processingDelay = processingDelay
    self.definedAttributes = definedAttributes
    self.registrationWindow = max(1, registrationWindow)
    self.waitingInMemory = max(0, waitingInMemory)
  }
}

/// A registration received and not yet processed (S2). Its payload is nil when it waits in
/// the store only (see `ServerSettings.waitingInMemory`).
public struct WaitingRegistration: Hashable, Sendable {
  public var id: Int
  public var receivedAt: Instant
  public var processAt: Instant
  public var payload: RegistrationPayload?

  public init(id: Int, receivedAt: Instant, processAt: Instant, payload: RegistrationPayload?) {
    self.id = id
    self.receivedAt = receivedAt
    self.processAt = processAt
    self.payload = payload
  }
}

/// Why the body of a registration that waited in the store could not be read back.
public struct StoredBodyUnreadable: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}

/// What a server store holds, as the core needs it to start again: every contact and device,
/// the newest registrations, the ones still waiting, and the counts of the rest.
public struct StoredServer: Sendable {
  public var contacts: [ServerContact] = []
  public var devices: [ServerDevice] = []
  /// The newest registrations, oldest first.
  public var recent: [ServerRegistration] = []
  public var waiting: [WaitingRegistration] = []
  public var processed = 0
  public var rejected = 0
  public var received = 0
  public var lastRegistrationID = 0
  /// `.none`: never stored; `.some(nil)`: every attribute accepted.
  public var definedAttributes: Set<String>?? = .none

  public init() {}
}

/// A contact (S3, S4): its key, whether the server made it up, and when.
public struct ServerContact: Hashable, Sendable, Codable {
  public var key: String
  /// True for a random GUID the server invented for a registration without a key (S3).
  public var madeUp: Bool
  public var createdAt: Instant
  /// When it lost its last device, if it has (S4, R8.1).
  public var orphanedAt: Instant?

  public init(key: String, madeUp: Bool, createdAt: Instant, orphanedAt: Instant? = nil) {
    self.key = key
    self.madeUp = madeUp
    self.createdAt = createdAt
    self.orphanedAt = orphanedAt
  }
}

/// A device as the server knows it after processing (S3-S6).
public struct ServerDevice: Hashable, Sendable, Codable {
  public var deviceID: String
  public var token: String?
  public var contactKey: String?
  public var platform: String
  public var active: Bool
  /// Why the device is inactive (S6), if it is.
  public var inactiveReason: String?
  public var pushEnabled: Bool
  public var attributes: [String: String]
  public var tags: [String]
  public var lastRegistrationID: Int
  public var lastRegistrationAt: Instant

  public init(
    deviceID: String, token: String?, contactKey: String?, platform: String, active: Bool,
    inactiveReason: String?, pushEnabled: Bool, attributes: [String: String], tags: [String],
    lastRegistrationID: Int, lastRegistrationAt: Instant
  ) {
    self.deviceID = deviceID
    self.token = token
    self.contactKey = contactKey
    self.platform = platform
    self.active = active
    self.inactiveReason = inactiveReason
    self.pushEnabled = pushEnabled
    self.attributes = attributes
    self.tags = tags
    self.lastRegistrationID = lastRegistrationID
    self.lastRegistrationAt = lastRegistrationAt
  }
}

/// One registration the server answered 201 to, and what became of it (S2).
public struct ServerRegistration: Hashable, Sendable, Codable {
  public enum Status: String, Hashable, Sendable, Codable {
    /// Received, not processed yet.
    case received
    case processed
    case rejected
  }

  public var id: Int
  public var receivedAt: Instant
  public var processAt: Instant
  public var status: Status
  public var processedAt: Instant?
  /// Why processing rejected it (S5, S6).
  public var reason: String?
  /// The contact the device was associated with by processing.
  public var contactKey: String?
  public var payload: RegistrationPayload

  public init(
    id: Int, receivedAt: Instant, processAt: Instant, status: Status, processedAt: Instant? = nil,
    reason: String? = nil, contactKey: String? = nil, payload: RegistrationPayload
  ) {
    self.id = id
    self.receivedAt = receivedAt
    self.processAt = processAt
    self.status = status
    self.processedAt = processedAt
    self.reason = reason
    self.contactKey = contactKey
    self.payload = payload
  }
}

/// The billing view (S4): distinct contacts, orphans, devices, work waiting.
public struct ServerStats: Hashable, Sendable, Codable {
  public var distinctContacts: Int
  public var orphanedContacts: Int
  public var madeUpContacts: Int
  public var devices: Int
  public var activeDevices: Int
  public var pending: Int
  public var processed: Int
  public var rejected: Int
  public var received: Int
}

extension ServerRegistration {
  /// What the store writes of a registration: all but its payload (the store keeps the body
  /// as it came). The store's writer gets rows, not registrations: a payload handed to its
  /// thread was a retain there of each of its texts, and their frees there, of memory the
  /// event loops had taken.
  public typealias Row = (
    id: Int, receivedAt: Instant, processAt: Instant, status: Status, processedAt: Instant?,
    reason: String?, contactKey: String?
  )

  public var row: Row { (id, receivedAt, processAt, status, processedAt, reason, contactKey) }
}
