/// Everything that must survive a restart or a `kill -9` (R1.4, R4.3). The engine writes it
/// to the store before it acknowledges an edit.
public struct RegistrationState: Hashable, Sendable, Codable {
  public var record: ContactRecord
  public var pending: [PendingChange]
  public var scheduler: SchedulerState
  public var lastAcknowledged: AcknowledgedRegistration?

  public init(
    record: ContactRecord, pending: [PendingChange] = [], scheduler: SchedulerState = .init(),
    lastAcknowledged: AcknowledgedRegistration? = nil
  ) {
    self.record = record
    self.pending = pending
    self.scheduler = scheduler
    self.lastAcknowledged = lastAcknowledged
  }
}

public struct SchedulerState: Hashable, Sendable, Codable {
  /// The sequence number the next edit gets.
  public var nextSeq: Int = 1
  /// When the initial registration became sendable: the first launch, or the moment a
  /// contact key unblocked it in delay mode (R3.1, R3.5). Nil once it is acknowledged.
  public var initialDueAt: Instant?
  public var lastSuccessAt: Instant?
  public var lastAttemptAt: Instant?
  /// A registration without a contact key was acknowledged: the server made up a contact for
  /// this device, which setting a key will orphan (R8.2).
  public var sentWithoutContactKey = false
  public var retry: RetryState?
  public var nextSendID = 1
  /// The shipped SDKs keep the server's Retry-After as a time before which nothing is sent
  /// (SDK-FACTS.md); the documented profile folds it into the retry wait instead.
  public var retryAfterUntil: Instant?
  /// The last `X-Subscriber-Token` a server handed out; the shipped SDKs send it back.
  public var subscriberToken: String?

  public init() {}
}

/// The backoff after failed sends (R4.1-R4.3); nil when the last send succeeded.
public struct RetryState: Hashable, Sendable, Codable {
  /// Failed attempts in a row.
  public var failures: Int
  public var nextAttemptAt: Instant
  public var failedAt: Instant
  public var lastStatus: Int?
  public var lastError: String?
  /// 400, 401, 403: waiting will not heal it (R4.5).
  public var needsFix: Bool

  public init(
    failures: Int, nextAttemptAt: Instant, failedAt: Instant, lastStatus: Int?,
    lastError: String?, needsFix: Bool
  ) {
    self.failures = failures
    self.nextAttemptAt = nextAttemptAt
    self.failedAt = failedAt
    self.lastStatus = lastStatus
    self.lastError = lastError
    self.needsFix = needsFix
  }
}

/// The last registration the server answered with a 2xx (R3.4, R4.5: "received").
public struct AcknowledgedRegistration: Hashable, Sendable, Codable {
  public var payload: RegistrationPayload
  public var hash: String
  public var at: Instant
  public var status: Int

  public init(payload: RegistrationPayload, hash: String, at: Instant, status: Int) {
    self.payload = payload
    self.hash = hash
    self.at = at
    self.status = status
  }
}

/// A send the engine has started and not yet heard back about. Not stored: after a crash
/// nobody knows whether it arrived, so its changes stay pending and go out again.
public struct InFlightSend: Hashable, Sendable {
  public var id: Int
  public var attempt: Int
  public var reason: ScheduleReason
  public var payload: RegistrationPayload
  public var body: [UInt8]
  public var startedAt: Instant
  /// Every pending entry with `seq` up to this was carried by this send.
  public var coveredSeq: Int
  public var clearedKeys: Set<String>

  public init(
    id: Int, attempt: Int, reason: ScheduleReason, payload: RegistrationPayload, body: [UInt8],
    startedAt: Instant, coveredSeq: Int, clearedKeys: Set<String>
  ) {
    self.id = id
    self.attempt = attempt
    self.reason = reason
    self.payload = payload
    self.body = body
    self.startedAt = startedAt
    self.coveredSeq = coveredSeq
    self.clearedKeys = clearedKeys
  }
}

public enum ScheduleReason: String, Hashable, Sendable, Codable {
  case initial
  case change
  case retry
}

/// What the engine will do next, and why.
public enum SendPlan: Hashable, Sendable {
  case idle
  case inFlight(since: Instant)
  /// R3.5: nothing goes out until a contact key is set.
  case delayedForContactKey
  /// R6.3: required fields missing.
  case blocked(missing: [String])
  case due(at: Instant, reason: ScheduleReason, openedBy: ChangeTarget?)
}

/// The answer to a send, as the transport saw it. `retryAfter` is already in seconds.
public enum SendResult: Hashable, Sendable {
  /// `body`: the answer's body as text, for listeners that receive it (iOS).
  /// `subscriberToken`: an `X-Subscriber-Token` the server handed out, which the shipped SDKs
  /// keep and send back.
  case answered(
    status: Int, retryAfter: Double?, body: String? = nil, subscriberToken: String? = nil)
  /// No connection, a time-out, a dropped connection: no HTTP status at all.
  case transportFailed(String)
}
