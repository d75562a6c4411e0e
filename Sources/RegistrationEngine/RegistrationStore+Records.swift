import Foundation
import GRDB
import RegistrationCore
import Synchronization

/// The store's rows as GRDB record types: one per table of RegistrationStore+Schema.swift,
/// with the conversions to and from the core's values. Columns are the properties in
/// snake_case. JSON columns stay text here and are read with `StoreJSON`, so a damaged store
/// names the table and the column.
protocol StoreRow: Codable, FetchableRecord, PersistableRecord {}

extension StoreRow {
  static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
    .convertFromSnakeCase
  }
  /// GRDB's `.convertToSnakeCase` converts every key of every row on every save: a sixth of a
  /// 30-day outage's time. The same names, worked out once each.
  static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy {
    .custom { key in StoreColumnNames.snakeCase(key.stringValue) }
  }
}

/// Property names as columns: `nextSendID` is `next_send_id`, as GRDB's snake case spells it.
enum StoreColumnNames {
  private static let known = Mutex<[String: String]>([:])

  static func snakeCase(_ name: String) -> String {
    if let found = known.withLock({ $0[name] }) { return found }
    let converted = convert(name)
    known.withLock { $0[name] = converted }
    return converted
  }

  /// A word starts at a capital after a small letter, or at the last capital of a run that a
  /// small letter follows (`URLValue` is `url_value`).
  static func convert(_ name: String) -> String {
    let letters = Array(name)
    var result = ""
    for (index, letter) in letters.enumerated() {
      if index > 0, letter.isUppercase {
        let previous = letters[index - 1]
        let nextIsLower = index + 1 < letters.count && letters[index + 1].isLowercase
        if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
          result.append("_")
        }
      }
      result += letter.lowercased()
    }
    return result
  }
}

struct RecordRow: StoreRow {
  static let databaseTableName = "record"
  var id = 1
  var contactKey: String?
  var attributes: String
  var tags: String
  var clearedAttributes: String
  var device: String

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
      attributes: try StoreJSON.decode([String: String].self, attributes, "attributes", table),
      tags: try StoreJSON.decode(Set<String>.self, tags, "tags", table),
      clearedAttributes: try StoreJSON.decode(
        Set<String>.self, clearedAttributes, "cleared_attributes", table),
      device: try StoreJSON.decode(DeviceFields.self, device, "device", table))
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

  /// The strategy's camelCase of `next_send_id` spells "Id".
  enum CodingKeys: String, CodingKey {
    case id, nextSeq, initialDueAt, lastSuccessAt, lastAttemptAt, sentWithoutContactKey
    case retryAfterUntil, subscriberToken
    case nextSendID = "nextSendId"
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

  /// Written by hand: this row goes out with every save (two a send), and Codable's encoder
  /// was most of a save's cost.
  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["next_seq"] = nextSeq
    container["next_send_id"] = nextSendID
    container["initial_due_at"] = initialDueAt
    container["last_success_at"] = lastSuccessAt
    container["last_attempt_at"] = lastAttemptAt
    container["sent_without_contact_key"] = sentWithoutContactKey
    container["retry_after_until"] = retryAfterUntil
    container["subscriber_token"] = subscriberToken
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
    container["id"] = id
    container["failures"] = failures
    container["next_attempt_at"] = nextAttemptAt
    container["failed_at"] = failedAt
    container["last_status"] = lastStatus
    container["last_error"] = lastError
    container["needs_fix"] = needsFix
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

  init(_ acknowledged: AcknowledgedRegistration) {
    body = String(decoding: acknowledged.payload.encodedBody(), as: UTF8.self)
    hash = acknowledged.hash
    acknowledgedAt = acknowledged.at.seconds
    status = acknowledged.status
  }

  func acknowledged() throws -> AcknowledgedRegistration {
    AcknowledgedRegistration(
      payload: try StoreJSON.decode(
        RegistrationPayload.self, body, "body", Self.databaseTableName),
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
    case id, attempt, reason, startedAt, finishedAt, status, error, hash, body
    case sendID = "sendId"
  }

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
    container["id"] = id
    container["send_id"] = sendID
    container["attempt"] = attempt
    container["reason"] = reason
    container["started_at"] = startedAt
    container["finished_at"] = finishedAt
    container["status"] = status
    container["error"] = error
    container["hash"] = hash
    container["body"] = body
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
    _ type: T.Type, _ text: String, _ column: String, _ table: String
  ) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
      throw StoreLoadError(table: table, detail: "\(column) is not valid: \(error)")
    }
  }
}
