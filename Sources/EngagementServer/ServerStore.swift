import Foundation
import GRDB
import RegistrationCore

#if canImport(Glibc)
  import Glibc
#endif

/// What the local server holds, in SQLite: contacts, devices, registrations and the
/// demographics table. In memory by default; a file (0600) with `--db FILE`. Each call's
/// changes are written in one transaction, so a bad request never disturbs what is stored.
public final class ServerStore: Sendable {
  public let location: String
  private let database: DatabaseQueue

  private init(location: String, database: DatabaseQueue) {
    self.location = location
    self.database = database
  }

  public static func inMemory() throws -> ServerStore {
    let store = ServerStore(location: ":memory:", database: try DatabaseQueue())
    try store.migrate()
    return store
  }

  public static func open(at path: String) throws -> ServerStore {
    let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ServerStoreError(path: path, detail: String(cString: strerror(errno)))
    }
    close(descriptor)
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    do {
      let store = ServerStore(
        location: path, database: try DatabaseQueue(path: path, configuration: configuration))
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

  /// Writes what one call of the core changed.
  public func apply(_ changes: EngagementServerCore.Changes) throws {
    guard
      !changes.registrations.isEmpty || !changes.devices.isEmpty || !changes.contacts.isEmpty
    else { return }
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
        if let body = changes.receivedBodies[registration.id] {
          // The body as the device sent it, not re-encoded.
          try insert.execute(arguments: [
            registration.id, registration.receivedAt.seconds, registration.processAt.seconds,
            registration.status.rawValue, registration.processedAt?.seconds, registration.reason,
            registration.contactKey, Data(body),
          ])
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
    }
  }

  public func saveDefinedAttributes(_ names: Set<String>?) throws {
    try database.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('definedAttributes', ?)",
        arguments: [try names.map { try jsonText($0.sorted()) }])
    }
  }

  /// Everything stored, to rebuild a core after a restart of the server.
  public func load() throws -> (
    contacts: [ServerContact], devices: [ServerDevice], registrations: [ServerRegistration],
    definedAttributes: Set<String>??
  ) {
    try database.read { db in
      let decoder = JSONDecoder()
      let contacts = try String.fetchAll(db, sql: "SELECT json FROM contact ORDER BY rowid").map {
        try decoder.decode(ServerContact.self, from: Data($0.utf8))
      }
      let devices = try String.fetchAll(db, sql: "SELECT json FROM device ORDER BY rowid").map {
        try decoder.decode(ServerDevice.self, from: Data($0.utf8))
      }
      let registrations = try Row.fetchAll(db, sql: "SELECT * FROM registration ORDER BY id").map {
        row in
        ServerRegistration(
          id: row["id"], receivedAt: Instant(row["received_at"]),
          processAt: Instant(row["process_at"]),
          status: ServerRegistration.Status(rawValue: row["status"]) ?? .received,
          processedAt: (row["processed_at"] as Double?).map(Instant.init), reason: row["reason"],
          contactKey: row["contact_key"],
          payload: try WireDecoding.payload(from: row["payload"] as Data).get())
      }
      var defined: Set<String>?? = .none
      if let row = try Row.fetchOne(
        db, sql: "SELECT value FROM setting WHERE name = 'definedAttributes'")
      {
        let text: String? = row["value"]
        defined = .some(
          try text.map { Set(try decoder.decode([String].self, from: Data($0.utf8))) })
      }
      return (contacts, devices, registrations, defined)
    }
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
