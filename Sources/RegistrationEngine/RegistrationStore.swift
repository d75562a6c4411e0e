import Foundation
import GRDB
import RegistrationCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The durable state of one installation (R1.4, R4.3) in SQLite: the record, the pending
/// changes, the scheduler and retry state, the last acknowledged body and a history of sends.
/// Every save is one transaction, committed with `synchronous = FULL` in WAL mode before the
/// engine acknowledges anything, so a `kill -9` at any instant loses nothing acknowledged.
public final class RegistrationStore: Sendable {
  /// The file path, or `:memory:`.
  public let location: String
  let database: DatabaseQueue
  /// What the last committed save wrote, so a save rewrites only the tables that changed.
  private let lastSaved = Mutex<RegistrationState?>(nil)
  /// Sends kept in the history; older ones are dropped.
  public static let historyLimit = 1_000
  static let schemaVersion = 2

  private init(location: String, database: DatabaseQueue) {
    self.location = location
    self.database = database
  }

  /// Opens (or creates, mode 0600 in a 0700 folder) the store at `path`. A file that is not a
  /// readable RegScope store is reported and left exactly as it was.
  public static func open(at path: String) throws(StoreError) -> RegistrationStore {
    try createPrivately(path)
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    let database: DatabaseQueue
    do {
      database = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw .corrupt(path: path, detail: describe(error))
    }
    let store = RegistrationStore(location: path, database: database)
    try store.checkIntegrity()
    try store.migrate()
    return store
  }

  /// A store that lives as long as this object: for scenarios in virtual time and tests. A
  /// "restart" reuses the same object, so state still comes back only from the store.
  public static func inMemory() throws(StoreError) -> RegistrationStore {
    do {
      let store = RegistrationStore(location: ":memory:", database: try DatabaseQueue())
      try store.migrate()
      return store
    } catch let error as StoreError {
      throw error
    } catch {
      throw .cannotCreate(path: ":memory:", reason: describe(error))
    }
  }

  /// Moves a store (and its WAL files) aside instead of deleting it; returns the new path.
  /// This is the only way RegScope ever discards a store, and only when asked.
  public static func moveAside(path: String, now: Date = Date()) throws(StoreError) -> String {
    let stamp = Int(now.timeIntervalSince1970)
    let target = "\(path).broken-\(stamp)"
    let files = FileManager.default
    do {
      for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
        try files.moveItem(atPath: path + suffix, toPath: target + suffix)
      }
    } catch {
      throw .writeFailed(
        path: path, reason: "could not move it aside: \(error.localizedDescription)")
    }
    return target
  }

  // MARK: Reading and writing

  /// The stored state, or nil for a store that has never been written (first launch).
  public func load() throws(StoreError) -> RegistrationState? {
    do {
      return try database.read { db -> RegistrationState? in
        guard let recordRow = try Row.fetchOne(db, sql: "SELECT * FROM record WHERE id = 1") else {
          return nil
        }
        let record = ContactRecord(
          contactKey: recordRow["contact_key"],
          attributes: try decode([String: String].self, recordRow, "attributes", table: "record"),
          tags: try decode(Set<String>.self, recordRow, "tags", table: "record"),
          clearedAttributes: try decode(
            Set<String>.self, recordRow, "cleared_attributes", table: "record"),
          device: try decode(DeviceFields.self, recordRow, "device", table: "record"))
        let pending = try Row.fetchAll(db, sql: "SELECT * FROM pending_change ORDER BY seq").map {
          row in
          guard let kind = ChangeTarget.Kind(rawValue: row["target_kind"]) else {
            throw LoadError(table: "pending_change", detail: "unknown change kind")
          }
          return PendingChange(
            seq: row["seq"], target: ChangeTarget(kind, row["target_name"]),
            firstAt: Instant(row["first_at"]), lastAt: Instant(row["last_at"]),
            summary: row["summary"])
        }
        var scheduler = SchedulerState()
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM scheduler WHERE id = 1") {
          scheduler.nextSeq = row["next_seq"]
          scheduler.nextSendID = row["next_send_id"]
          scheduler.initialDueAt = (row["initial_due_at"] as Double?).map(Instant.init)
          scheduler.lastSuccessAt = (row["last_success_at"] as Double?).map(Instant.init)
          scheduler.lastAttemptAt = (row["last_attempt_at"] as Double?).map(Instant.init)
          scheduler.sentWithoutContactKey = row["sent_without_contact_key"]
          scheduler.retryAfterUntil = (row["retry_after_until"] as Double?).map(Instant.init)
          scheduler.subscriberToken = row["subscriber_token"]
        }
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM retry_state WHERE id = 1") {
          scheduler.retry = RetryState(
            failures: row["failures"], nextAttemptAt: Instant(row["next_attempt_at"]),
            failedAt: Instant(row["failed_at"]), lastStatus: row["last_status"],
            lastError: row["last_error"], needsFix: row["needs_fix"])
        }
        var acknowledged: AcknowledgedRegistration?
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM last_acknowledged WHERE id = 1") {
          acknowledged = AcknowledgedRegistration(
            payload: try decode(RegistrationPayload.self, row, "body", table: "last_acknowledged"),
            hash: row["hash"], at: Instant(row["acknowledged_at"]), status: row["status"])
        }
        return RegistrationState(
          record: record, pending: pending, scheduler: scheduler, lastAcknowledged: acknowledged)
      }
    } catch let error as LoadError {
      throw .corrupt(path: location, detail: "table \(error.table): \(error.detail)")
    } catch {
      throw .corrupt(path: location, detail: Self.describe(error))
    }
  }

  /// Writes the whole state in one transaction; `send` is appended to the history in the same
  /// transaction. When this returns, the state survives a crash.
  public func save(_ state: RegistrationState, appending send: SendRecord? = nil) throws(StoreError)
  {
    let previous = lastSaved.withLock { $0 }
    /// True when this part differs from what is on disk (always, before the first save).
    func changed<Part: Equatable>(_ part: (RegistrationState) -> Part) -> Bool {
      previous.map { part($0) != part(state) } ?? true
    }
    do {
      try database.write { db in
        let record = state.record
        if changed(\.record) {
          try db.execute(
            sql: """
              INSERT OR REPLACE INTO record
                (id, contact_key, attributes, tags, cleared_attributes, device)
              VALUES (1, ?, ?, ?, ?, ?)
              """,
            arguments: [
              record.contactKey, try encode(record.attributes), try encode(record.tags.sorted()),
              try encode(record.clearedAttributes.sorted()), try encode(record.device),
            ])
        }
        if changed(\.pending) {
          try db.execute(sql: "DELETE FROM pending_change")
          for change in state.pending {
            try db.execute(
              sql: """
                INSERT INTO pending_change (seq, target_kind, target_name, first_at, last_at, summary)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
              arguments: [
                change.seq, change.target.kind.rawValue, change.target.name,
                change.firstAt.seconds, change.lastAt.seconds, change.summary,
              ])
          }
        }
        let scheduler = state.scheduler
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO scheduler (id, next_seq, next_send_id, initial_due_at,
              last_success_at, last_attempt_at, sent_without_contact_key, retry_after_until,
              subscriber_token)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            scheduler.nextSeq, scheduler.nextSendID, scheduler.initialDueAt?.seconds,
            scheduler.lastSuccessAt?.seconds, scheduler.lastAttemptAt?.seconds,
            scheduler.sentWithoutContactKey, scheduler.retryAfterUntil?.seconds,
            scheduler.subscriberToken,
          ])
        if let retry = scheduler.retry {
          try db.execute(
            sql: """
              INSERT OR REPLACE INTO retry_state (id, failures, next_attempt_at, failed_at,
                last_status, last_error, needs_fix)
              VALUES (1, ?, ?, ?, ?, ?, ?)
              """,
            arguments: [
              retry.failures, retry.nextAttemptAt.seconds, retry.failedAt.seconds,
              retry.lastStatus, retry.lastError, retry.needsFix,
            ])
        } else {
          try db.execute(sql: "DELETE FROM retry_state")
        }
        if !changed(\.lastAcknowledged) {
          // Already on disk.
        } else if let acked = state.lastAcknowledged {
          try db.execute(
            sql: """
              INSERT OR REPLACE INTO last_acknowledged (id, body, hash, acknowledged_at, status)
              VALUES (1, ?, ?, ?, ?)
              """,
            arguments: [
              String(decoding: acked.payload.encodedBody(), as: UTF8.self), acked.hash,
              acked.at.seconds, acked.status,
            ])
        } else {
          try db.execute(sql: "DELETE FROM last_acknowledged")
        }
        if let send {
          try db.execute(
            sql: """
              INSERT INTO send_history (send_id, attempt, reason, started_at, finished_at,
                status, error, hash, body)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
              """,
            arguments: [
              send.sendID, send.attempt, send.reason.rawValue, send.startedAt.seconds,
              send.finishedAt.seconds, send.status, send.error, send.hash, send.body,
            ])
          try db.execute(
            sql: """
              DELETE FROM send_history WHERE id <= (SELECT MAX(id) FROM send_history) - ?
              """,
            arguments: [Self.historyLimit])
        }
      }
    } catch {
      // What is on disk is unknown now: the next save writes everything.
      lastSaved.withLock { $0 = nil }
      throw .writeFailed(path: location, reason: Self.describe(error))
    }
    lastSaved.withLock { $0 = state }
  }

  /// The newest sends first.
  public func history(limit: Int = 100) throws(StoreError) -> [SendRecord] {
    do {
      return try database.read { db in
        try Row.fetchAll(
          db, sql: "SELECT * FROM send_history ORDER BY id DESC LIMIT ?", arguments: [limit]
        ).map { row in
          SendRecord(
            sendID: row["send_id"], attempt: row["attempt"],
            reason: ScheduleReason(rawValue: row["reason"]) ?? .change,
            startedAt: Instant(row["started_at"]), finishedAt: Instant(row["finished_at"]),
            status: row["status"], error: row["error"], hash: row["hash"], body: row["body"])
        }
      }
    } catch {
      throw .corrupt(path: location, detail: Self.describe(error))
    }
  }

  // MARK: Opening

  private static func createPrivately(_ path: String) throws(StoreError) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotCreate(path: path, reason: error.localizedDescription)
    }
    // Create the file ourselves so it is 0600 from its first byte; SQLite gives its -wal and
    // -shm files the mode of the database file.
    let existed = FileManager.default.fileExists(atPath: path)
    #if canImport(Glibc)
      let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    #else
      let descriptor = Darwin.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    #endif
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw existed
        ? .cannotOpen(path: path, reason: reason) : .cannotCreate(path: path, reason: reason)
    }
    close(descriptor)
  }

  private func checkIntegrity() throws(StoreError) {
    do {
      let verdicts = try database.read { db in
        try String.fetchAll(db, sql: "PRAGMA quick_check")
      }
      guard verdicts == ["ok"] else {
        throw StoreError.corrupt(
          path: location, detail: "integrity check: \(verdicts.prefix(3).joined(separator: "; "))")
      }
      let version = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
      if let version, version > Self.schemaVersion {
        throw StoreError.newerSchema(path: location, version: version)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .corrupt(path: location, detail: Self.describe(error))
    }
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error)")"
    }
    return "\(error)"
  }
}

private struct LoadError: Error {
  var table: String
  var detail: String
}

private func encode<T: Encodable>(_ value: T) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<T: Decodable>(_ type: T.Type, _ row: Row, _ column: String, table: String)
  throws -> T
{
  guard let text = row[column] as String? else {
    throw LoadError(table: table, detail: "\(column) is missing")
  }
  do {
    return try JSONDecoder().decode(T.self, from: Data(text.utf8))
  } catch {
    throw LoadError(table: table, detail: "\(column) is not valid: \(error)")
  }
}
