import GRDB

/// The store's schema, one migration per version. `RegistrationStore.schemaVersion` is the
/// newest; a file from a newer RegScope is refused rather than touched.
extension RegistrationStore {
  func migrate() throws(StoreError) {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE record (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            contact_key TEXT,
            attributes TEXT NOT NULL,
            tags TEXT NOT NULL,
            cleared_attributes TEXT NOT NULL,
            device TEXT NOT NULL);
          CREATE TABLE pending_change (
            seq INTEGER PRIMARY KEY,
            target_kind TEXT NOT NULL,
            target_name TEXT NOT NULL,
            first_at REAL NOT NULL,
            last_at REAL NOT NULL,
            summary TEXT NOT NULL);
          CREATE TABLE scheduler (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            next_seq INTEGER NOT NULL,
            next_send_id INTEGER NOT NULL,
            initial_due_at REAL,
            last_success_at REAL,
            last_attempt_at REAL,
            sent_without_contact_key INTEGER NOT NULL);
          CREATE TABLE retry_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            failures INTEGER NOT NULL,
            next_attempt_at REAL NOT NULL,
            failed_at REAL NOT NULL,
            last_status INTEGER,
            last_error TEXT,
            needs_fix INTEGER NOT NULL);
          CREATE TABLE last_acknowledged (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            body TEXT NOT NULL,
            hash TEXT NOT NULL,
            acknowledged_at REAL NOT NULL,
            status INTEGER NOT NULL);
          CREATE TABLE send_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            send_id INTEGER NOT NULL,
            attempt INTEGER NOT NULL,
            reason TEXT NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL NOT NULL,
            status INTEGER,
            error TEXT,
            hash TEXT NOT NULL,
            body TEXT NOT NULL);
          PRAGMA user_version = 1;
          """)
    }
    // What the shipped SDKs keep besides (SDK profiles): the server's Retry-After gate, kept
    // across a restart like the rest of the schedule (R4.3), and the X-Subscriber-Token.
    migrator.registerMigration("v2") { db in
      try db.execute(
        sql: """
          ALTER TABLE scheduler ADD COLUMN retry_after_until REAL;
          ALTER TABLE scheduler ADD COLUMN subscriber_token TEXT;
          PRAGMA user_version = 2;
          """)
    }
    do {
      try migrator.migrate(database)
    } catch {
      throw .corrupt(path: location, detail: Self.describe(error))
    }
  }
}
