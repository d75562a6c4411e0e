import EngagementCore
import Foundation
import GRDB
import RegistrationCore
import Synchronization
import SystemCalls

/// What the local server holds, in SQLite: contacts, devices, registrations and the
/// demographics table. A file (0600) with `--db FILE`; otherwise a volatile store, which keeps
/// only the registrations still waiting and the newest few, so it stays small however long the
/// server runs. Each call's changes are written in one transaction, so a bad request never
/// disturbs what is stored.
public final class ServerStore: Sendable {
  public let location: String
  private let database: DatabaseQueue
  /// Gone when the process ends: registrations that left the views' window are deleted.
  public let isVolatile: Bool
  /// Below this id a volatile store has already forgotten every finished registration.
  private let forgotten = Mutex(0)

  private init(location: String, database: DatabaseQueue, isVolatile: Bool) {
    self.location = location
    self.database = database
    self.isVolatile = isVolatile
  }

  /// In memory: for scenarios and tests, whose traffic is small.
  public static func inMemory() throws -> ServerStore {
    let store = ServerStore(location: ":memory:", database: try DatabaseQueue(), isVolatile: true)
    try store.migrate()
    return store
  }

  /// A private on-disk database that SQLite deletes when it is closed: what a long-running
  /// server with no `--db` uses, so that waiting registrations cost disk, not memory.
  public static func temporary() throws -> ServerStore {
    let store = ServerStore(
      location: "(temporary)", database: try DatabaseQueue(path: ""), isVolatile: true)
    try store.migrate()
    return store
  }

  public static func open(at path: String) throws -> ServerStore {
    if let reason = SystemCalls.createPrivateFile(path) {
      throw ServerStoreError(path: path, detail: reason)
    }
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    do {
      let store = ServerStore(
        location: path, database: try DatabaseQueue(path: path, configuration: configuration),
        isVolatile: false)
      let verdict = try store.database.read { try String.fetchOne($0, sql: "PRAGMA quick_check") }
      guard verdict == "ok" else {
        throw ServerStoreError(path: path, detail: "integrity check: \(verdict ?? "no answer")")
      }
      try store.migrate()
      return store
    } catch let error as ServerStoreError {
      throw error
    } catch {
      throw ServerStoreError(path: path, detail: "\(error)")
    }
  }

  /// Writes what one call of the core changed. A volatile store also forgets the finished
  /// registrations older than `windowStart` (the oldest id the views keep), each once: the
  /// ids between the last call's window start and this one's, and older ones as they finish.
  public func apply(_ changes: EngagementServerCore.Changes, windowStart: Int? = nil) throws {
    guard
      !changes.registrations.isEmpty || !changes.devices.isEmpty || !changes.contacts.isEmpty
    else { return }
    let forgetBefore = isVolatile ? windowStart : nil
    let forgottenFrom = forgotten.withLock { $0 }
    let bodies = Dictionary(
      changes.receivedBodies.lazy.map { ($0.id, $0.body) }, uniquingKeysWith: { _, newer in newer })
    try database.write { db in
      // Cached statements: under load one transaction carries many rows, and compiling
      // the SQL once per row showed in the profile.
      let insert = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO registration (id, received_at, process_at, status,
            processed_at, reason, contact_key, payload)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """)
      let update = try db.cachedStatement(
        sql: """
          UPDATE registration SET status = ?, processed_at = ?, reason = ?, contact_key = ?
          WHERE id = ?
          """)
      for registration in changes.registrations {
        if let body = bodies[registration.id] {
          // The body as the device sent it, not re-encoded.
          try insert.execute(arguments: [
            registration.id, registration.receivedAt.seconds, registration.processAt.seconds,
            registration.status.rawValue, registration.processedAt?.seconds, registration.reason,
            registration.contactKey, Data(body),
          ])
        } else if let forgetBefore, registration.id < forgetBefore {
          try db.cachedStatement(sql: "DELETE FROM registration WHERE id = ?").execute(
            arguments: [registration.id])
        } else {
          try update.execute(arguments: [
            registration.status.rawValue, registration.processedAt?.seconds, registration.reason,
            registration.contactKey, registration.id,
          ])
        }
      }
      let upsertDevice = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO device (device_id, json) VALUES (?, ?)")
      for device in changes.devices {
        try upsertDevice.execute(arguments: [device.deviceID, try jsonText(device)])
      }
      let upsertContact = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO contact (key, json) VALUES (?, ?)")
      for contact in changes.contacts {
        try upsertContact.execute(arguments: [contact.key, try jsonText(contact)])
      }
      if let forgetBefore, forgetBefore > forgottenFrom {
        // Every flush of a temporary store moves the window: compiled once, not each time
        // (the compile and its authorizer were a sixth of the server's side under a fleet).
        try db.cachedStatement(
          sql: "DELETE FROM registration WHERE id >= ? AND id < ? AND status != 'received'"
        ).execute(arguments: [forgottenFrom, forgetBefore])
      }
    }
    if let forgetBefore { forgotten.withLock { $0 = max($0, forgetBefore) } }
  }

  public func saveDefinedAttributes(_ names: Set<String>?) throws {
    try database.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('definedAttributes', ?)",
        arguments: [try names.map { try jsonText($0.sorted()) }])
    }
  }

  /// What a core needs to start again: every contact and device, the newest `window`
  /// registrations, the ones still waiting (their bodies stay here until processing asks for
  /// them), and counts of the rest.
  public func load(window: Int) throws -> StoredServer {
    try database.read { db in
      let decoder = JSONDecoder()
      var stored = StoredServer()
      stored.contacts = try String.fetchAll(db, sql: "SELECT json FROM contact ORDER BY rowid")
        .map { try decoder.decode(ServerContact.self, from: Data($0.utf8)) }
      stored.devices = try String.fetchAll(db, sql: "SELECT json FROM device ORDER BY rowid").map {
        try decoder.decode(ServerDevice.self, from: Data($0.utf8))
      }
      stored.recent = try Row.fetchAll(
        db, sql: "SELECT * FROM registration ORDER BY id DESC LIMIT ?", arguments: [window]
      ).reversed().map { row in
        ServerRegistration(
          id: row["id"], receivedAt: Instant(row["received_at"]),
          processAt: Instant(row["process_at"]),
          status: ServerRegistration.Status(rawValue: row["status"]) ?? .received,
          processedAt: (row["processed_at"] as Double?).map(Instant.init), reason: row["reason"],
          contactKey: row["contact_key"],
          payload: try WireDecoding.payload(from: row["payload"] as Data).get())
      }
      stored.waiting = try Row.fetchAll(
        db,
        sql: "SELECT id, received_at, process_at FROM registration WHERE status = 'received'"
      ).map { row in
        WaitingRegistration(
          id: row["id"], receivedAt: Instant(row["received_at"]),
          processAt: Instant(row["process_at"]), payload: nil)
      }
      for row in try Row.fetchAll(
        db, sql: "SELECT status, COUNT(*) AS n FROM registration GROUP BY status")
      {
        let count: Int = row["n"]
        switch ServerRegistration.Status(rawValue: row["status"]) {
        case .processed: stored.processed = count
        case .rejected: stored.rejected = count
        default: break
        }
        stored.received += count
      }
      stored.lastRegistrationID = try Int.fetchOne(db, sql: "SELECT MAX(id) FROM registration") ?? 0
      if let row = try Row.fetchOne(
        db, sql: "SELECT value FROM setting WHERE name = 'definedAttributes'")
      {
        let text: String? = row["value"]
        stored.definedAttributes = .some(
          try text.map { Set(try decoder.decode([String].self, from: Data($0.utf8))) })
      }
      return stored
    }
  }

  /// The bodies of registrations that waited in the store only, decoded, by id.
  public func payloads(_ ids: [Int]) -> [Int: Result<RegistrationPayload, StoredBodyUnreadable>] {
    var result: [Int: Result<RegistrationPayload, StoredBodyUnreadable>] = [:]
    do {
      try database.read { db in
        for id in ids {
          guard
            let body = try Data.fetchOne(
              db, sql: "SELECT payload FROM registration WHERE id = ?", arguments: [id])
          else {
            result[id] = .failure(StoredBodyUnreadable("registration \(id) is not in the store"))
            continue
          }
          result[id] = WireDecoding.payload(from: body).mapError { StoredBodyUnreadable("\($0)") }
        }
      }
    } catch {
      for id in ids where result[id] == nil {
        result[id] = .failure(StoredBodyUnreadable("\(error)"))
      }
    }
    return result
  }

  private func migrate() throws {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE contact (key TEXT PRIMARY KEY, json TEXT NOT NULL);
          CREATE TABLE device (device_id TEXT PRIMARY KEY, json TEXT NOT NULL);
          CREATE TABLE registration (
            id INTEGER PRIMARY KEY,
            received_at REAL NOT NULL,
            process_at REAL NOT NULL,
            status TEXT NOT NULL,
            processed_at REAL,
            reason TEXT,
            contact_key TEXT,
            payload TEXT NOT NULL);
          CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT);
          """)
    }
    try migrator.migrate(database)
  }
}

public struct ServerStoreError: Error, CustomStringConvertible {
  public var path: String
  public var detail: String
  public var description: String {
    "the server database \(path) cannot be used (\(detail)); it was left untouched"
  }
}

private func jsonText<T: Encodable>(_ value: T) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}
