import Foundation
import GRDB
import RegistrationCore
import Synchronization
import SystemCalls

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
        guard let record = try RecordRow.fetchOne(db, key: 1) else { return nil }
        let retry = try RetryRow.fetchOne(db, key: 1)?.retryState
        var unscheduled = SchedulerState()
        unscheduled.retry = retry
        return RegistrationState(
          record: try record.contactRecord(),
          pending: try PendingChangeRow.order(PendingChangeRow.Columns.seq).fetchAll(db).map {
            try $0.pendingChange()
          },
          scheduler: try SchedulerRow.fetchOne(db, key: 1)?.scheduler(retry: retry)
            ?? unscheduled,
          lastAcknowledged: try AcknowledgedRow.fetchOne(db, key: 1)?.acknowledged())
      }
    } catch let error as StoreLoadError {
      throw .corrupt(path: location, detail: "table \(error.table): \(error.detail)")
    } catch {
      throw .corrupt(path: location, detail: Self.describe(error))
    }
  }

  /// Writes the whole state in one transaction; `send` is appended to the history in the same
  /// transaction. When this returns, the state survives a crash. Only the tables whose part
  /// of the state changed since the last save are rewritten.
  public func save(_ state: RegistrationState, appending send: SendRecord? = nil) throws(StoreError)
  {
    let previous = lastSaved.withLock { $0 }
    /// True when this part differs from what is on disk (always, before the first save).
    func changed<Part: Equatable>(_ part: (RegistrationState) -> Part) -> Bool {
      previous.map { part($0) != part(state) } ?? true
    }
    do {
      try database.write { db in
        if changed(\.record) { try RecordRow(state.record).insert(db, onConflict: .replace) }
        if changed(\.pending) {
          try PendingChangeRow.deleteAll(db)
          for change in state.pending { try PendingChangeRow(change).insert(db) }
        }
        try SchedulerRow(state.scheduler).insert(db, onConflict: .replace)
        if let retry = state.scheduler.retry {
          try RetryRow(retry).insert(db, onConflict: .replace)
        } else {
          try RetryRow.deleteAll(db)
        }
        if changed(\.lastAcknowledged) {
          if let acknowledged = state.lastAcknowledged {
            try AcknowledgedRow(acknowledged).insert(db, onConflict: .replace)
          } else {
            try AcknowledgedRow.deleteAll(db)
          }
        }
        if let send {
          try SendHistoryRow(send).insert(db)
          // Cached: prepared once, not parsed again on every send.
          try db.cachedStatement(
            sql: "DELETE FROM send_history WHERE id <= (SELECT MAX(id) FROM send_history) - ?"
          ).execute(arguments: [Self.historyLimit])
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
        try SendHistoryRow.order(SendHistoryRow.Columns.id.desc).limit(limit).fetchAll(db).map(
          \.sendRecord)
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
    if let reason = SystemCalls.createPrivateFile(path) {
      throw existed
        ? .cannotOpen(path: path, reason: reason) : .cannotCreate(path: path, reason: reason)
    }
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
