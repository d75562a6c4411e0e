import Foundation
import GRDB
import RegistrationCore

/// The store's rows as GRDB record types: one per table of RegistrationStore+Schema.swift,
/// with the conversions to and from the core's values. Each column is spelled once, as its
/// `CodingKeys` case (the name the schema gave it), and `Columns` are made from those, as
/// GRDB's guide does. JSON columns stay text here and are read with `StoreJSON`, so a damaged
/// store names the table and the column.
protocol StoreRow: Codable, FetchableRecord, PersistableRecord {}

struct RecordRow: StoreRow {
  static let databaseTableName = "record"
  var id = 1
  var contactKey: String?
  var attributes: String
  var tags: String
  var clearedAttributes: String
  var device: String

  enum CodingKeys: String, CodingKey {
    case id, attributes, tags, device
    case contactKey = "contact_key"
    case clearedAttributes = "cleared_attributes"
  }

  init(_ record: ContactRecord) throws {
    contactKey = record.contactKey
    attributes = try StoreJSON.encode(record.attributes)
    tags = try StoreJSON.encode(record.tags.sorted())
    clearedAttributes = try StoreJSON.encode(record.clearedAttributes.sorted())
    device = try StoreJSON.encode(record.device)
  }

  func contactRecord() throws -> ContactRecord {
    let table = Self.databaseTableName
    return ContactRecord(
      contactKey: contactKey,
      attributes: try StoreJSON.decode(
        [String: String].self, attributes, CodingKeys.attributes, table),
      tags: try StoreJSON.decode(Set<String>.self, tags, CodingKeys.tags, table),
      clearedAttributes: try StoreJSON.decode(
        Set<String>.self, clearedAttributes, CodingKeys.clearedAttributes, table),
      device: try StoreJSON.decode(DeviceFields.self, device, CodingKeys.device, table))
  }
}

struct PendingChangeRow: StoreRow {
  static let databaseTableName = "pending_change"
  var seq: Int
  var targetKind: String
  var targetName: String
  var firstAt: Double
  var lastAt: Double
  var summary: String

  enum CodingKeys: String, CodingKey {
    case seq, summary
    case targetKind = "target_kind"
    case targetName = "target_name"
    case firstAt = "first_at"
    case lastAt = "last_at"
  }
  enum Columns { static let seq = Column(CodingKeys.seq) }

  init(_ change: PendingChange) {
    seq = change.seq
    targetKind = change.target.kind.rawValue
    targetName = change.target.name
    firstAt = change.firstAt.seconds
    lastAt = change.lastAt.seconds
    summary = change.summary
  }

  func pendingChange() throws -> PendingChange {
    guard let kind = ChangeTarget.Kind(rawValue: targetKind) else {
      throw StoreLoadError(table: Self.databaseTableName, detail: "unknown change kind")
    }
    return PendingChange(
      seq: seq, target: ChangeTarget(kind, targetName), firstAt: Instant(firstAt),
      lastAt: Instant(lastAt), summary: summary)
  }
}

struct SchedulerRow: StoreRow {
  static let databaseTableName = "scheduler"
  var id = 1
  var nextSeq: Int
  var nextSendID: Int
  var initialDueAt: Double?
  var lastSuccessAt: Double?
  var lastAttemptAt: Double?
  var sentWithoutContactKey: Bool
  var retryAfterUntil: Double?
  var subscriberToken: String?

  enum CodingKeys: String, CodingKey {
    case id
    case nextSeq = "next_seq"
    case nextSendID = "next_send_id"
    case initialDueAt = "initial_due_at"
    case lastSuccessAt = "last_success_at"
    case lastAttemptAt = "last_attempt_at"
    case sentWithoutContactKey = "sent_without_contact_key"
    case retryAfterUntil = "retry_after_until"
    case subscriberToken = "subscriber_token"
  }

  init(_ scheduler: SchedulerState) {
    nextSeq = scheduler.nextSeq
    nextSendID = scheduler.nextSendID
    initialDueAt = scheduler.initialDueAt?.seconds
    lastSuccessAt = scheduler.lastSuccessAt?.seconds
    lastAttemptAt = scheduler.lastAttemptAt?.seconds
    sentWithoutContactKey = scheduler.sentWithoutContactKey
    retryAfterUntil = scheduler.retryAfterUntil?.seconds
    subscriberToken = scheduler.subscriberToken
  }

  /// Written by hand, with the `CodingKeys` names: this row goes out with every save (two a
  /// send). The three rows written so take a 30-day outage through the engine and its store
  /// (`regscope-bench outage`, release, callgrind) from 30.6 to 28.7 million instructions,
  /// 6%, measured 2026-11-28.
  func encode(to container: inout PersistenceContainer) {
    container[CodingKeys.id.rawValue] = id
    container[CodingKeys.nextSeq.rawValue] = nextSeq
    container[CodingKeys.nextSendID.rawValue] = nextSendID
    container[CodingKeys.initialDueAt.rawValue] = initialDueAt
    container[CodingKeys.lastSuccessAt.rawValue] = lastSuccessAt
    container[CodingKeys.lastAttemptAt.rawValue] = lastAttemptAt
    container[CodingKeys.sentWithoutContactKey.rawValue] = sentWithoutContactKey
    container[CodingKeys.retryAfterUntil.rawValue] = retryAfterUntil
    container[CodingKeys.subscriberToken.rawValue] = subscriberToken
  }

  /// The schedule, with the retry state kept in its own table.
  func scheduler(retry: RetryState?) -> SchedulerState {
    var scheduler = SchedulerState()
    scheduler.nextSeq = nextSeq
    scheduler.nextSendID = nextSendID
    scheduler.initialDueAt = initialDueAt.map(Instant.init)
    scheduler.lastSuccessAt = lastSuccessAt.map(Instant.init)
    scheduler.lastAttemptAt = lastAttemptAt.map(Instant.init)
    scheduler.sentWithoutContactKey = sentWithoutContactKey
    scheduler.retryAfterUntil = retryAfterUntil.map(Instant.init)
    scheduler.subscriberToken = subscriberToken
    scheduler.retry = retry
    return scheduler
  }
}

struct RetryRow: StoreRow {
  static let databaseTableName = "retry_state"
  var id = 1
  var failures: Int
  var nextAttemptAt: Double
  var failedAt: Double
  var lastStatus: Int?
  var lastError: String?
  var needsFix: Bool

  enum CodingKeys: String, CodingKey {
    case id, failures
    case nextAttemptAt = "next_attempt_at"
    case failedAt = "failed_at"
    case lastStatus = "last_status"
    case lastError = "last_error"
    case needsFix = "needs_fix"
  }

  init(_ retry: RetryState) {
    failures = retry.failures
    nextAttemptAt = retry.nextAttemptAt.seconds
    failedAt = retry.failedAt.seconds
    lastStatus = retry.lastStatus
    lastError = retry.lastError
    needsFix = retry.needsFix
  }

  /// Written by hand: saved with every failure of an outage (see `SchedulerRow`).
  func encode(to container: inout PersistenceContainer) {
    container[CodingKeys.id.rawValue] = id
    container[CodingKeys.failures.rawValue] = failures
    container[CodingKeys.nextAttemptAt.rawValue] = nextAttemptAt
    container[CodingKeys.failedAt.rawValue] = failedAt
    container[CodingKeys.lastStatus.rawValue] = lastStatus
    container[CodingKeys.lastError.rawValue] = lastError
    container[CodingKeys.needsFix.rawValue] = needsFix
  }

  var retryState: RetryState {
    RetryState(
      failures: failures, nextAttemptAt: Instant(nextAttemptAt), failedAt: Instant(failedAt),
      lastStatus: lastStatus, lastError: lastError, needsFix: needsFix)
  }
}

struct AcknowledgedRow: StoreRow {
  static let databaseTableName = "last_acknowledged"
  var id = 1
  var body: String
  var hash: String
  var acknowledgedAt: Double
  var status: Int

  enum CodingKeys: String, CodingKey {
    case id, body, hash, status
    case acknowledgedAt = "acknowledged_at"
  }

  init(_ acknowledged: AcknowledgedRegistration) {
    body = String(decoding: acknowledged.payload.encodedBody(), as: UTF8.self)
    hash = acknowledged.hash
    acknowledgedAt = acknowledged.at.seconds
    status = acknowledged.status
  }

  func acknowledged() throws -> AcknowledgedRegistration {
    AcknowledgedRegistration(
      payload: try StoreJSON.decode(
        RegistrationPayload.self, body, CodingKeys.body, Self.databaseTableName),
      hash: hash, at: Instant(acknowledgedAt), status: status)
  }
}

struct SendHistoryRow: StoreRow {
  static let databaseTableName = "send_history"
  var id: Int64?
  var sendID: Int
  var attempt: Int
  var reason: String
  var startedAt: Double
  var finishedAt: Double
  var status: Int?
  var error: String?
  var hash: String
  var body: String

  enum CodingKeys: String, CodingKey {
    case id, attempt, reason, status, error, hash, body
    case sendID = "send_id"
    case startedAt = "started_at"
    case finishedAt = "finished_at"
  }
  enum Columns { static let id = Column(CodingKeys.id) }

  init(_ send: SendRecord) {
    sendID = send.sendID
    attempt = send.attempt
    reason = send.reason.rawValue
    startedAt = send.startedAt.seconds
    finishedAt = send.finishedAt.seconds
    status = send.status
    error = send.error
    hash = send.hash
    body = send.body
  }

  /// Written by hand: one a send (see `SchedulerRow`).
  func encode(to container: inout PersistenceContainer) {
    container[CodingKeys.id.rawValue] = id
    container[CodingKeys.sendID.rawValue] = sendID
    container[CodingKeys.attempt.rawValue] = attempt
    container[CodingKeys.reason.rawValue] = reason
    container[CodingKeys.startedAt.rawValue] = startedAt
    container[CodingKeys.finishedAt.rawValue] = finishedAt
    container[CodingKeys.status.rawValue] = status
    container[CodingKeys.error.rawValue] = error
    container[CodingKeys.hash.rawValue] = hash
    container[CodingKeys.body.rawValue] = body
  }

  var sendRecord: SendRecord {
    SendRecord(
      sendID: sendID, attempt: attempt, reason: ScheduleReason(rawValue: reason) ?? .change,
      startedAt: Instant(startedAt), finishedAt: Instant(finishedAt), status: status,
      error: error, hash: hash, body: body)
  }
}

/// A table whose content is not what this version wrote.
struct StoreLoadError: Error {
  var table: String
  var detail: String
}

/// The JSON kept in text columns: keys sorted, so equal values are equal text.
enum StoreJSON {
  static func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<T: Decodable>(
    _ type: T.Type, _ text: String, _ column: some CodingKey, _ table: String
  ) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
      throw StoreLoadError(table: table, detail: "\(column.stringValue) is not valid: \(error)")
    }
  }
}
