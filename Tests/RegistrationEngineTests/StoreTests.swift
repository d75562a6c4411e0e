import Foundation
import GRDB
import RegistrationCore
import RegistrationEngine
import TestSupport
import Testing

@Suite("RegistrationStore")
struct StoreTests {
  @Test("R1.4 the whole state round-trips through the store")
  func roundTrip() async throws {
    let f = try EngineFixture(
      transport: InMemoryTransport { _ in .answered(status: 429, retryAfter: 300) })
    try await f.engine.launch()
    try await f.engine.apply(.setContactKey("user-1"))
    try await f.engine.apply(.setAttribute(key: "CODE", value: "FREE99"))
    try await f.engine.apply(.addTag("sports"))
    try await f.advance(to: 10)
    let snapshot = try await f.engine.snapshot()
    let loaded = try #require(try f.store.load())
    #expect(loaded == snapshot.state)
    #expect(loaded.scheduler.retry?.nextAttemptAt == Instant(300))
  }

  @Test("a store from before SDK profiles (schema 1) opens, migrates and keeps its state")
  func migratesSchemaOne() async throws {
    let path = try temporaryDirectory().appendingPathComponent("state.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    try await f.engine.apply(.addTag("kept"))
    await f.engine.shutDown()
    let before = try #require(try RegistrationStore.open(at: path).load())
    // Make it the file RegScope wrote before: no v2 column, schema 1.
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in
      try db.execute(sql: "ALTER TABLE scheduler DROP COLUMN retry_after_until")
      try db.execute(sql: "ALTER TABLE scheduler DROP COLUMN subscriber_token")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2'")
      try db.execute(sql: "PRAGMA user_version = 1")
    }
    try queue.close()
    let reopened = try RegistrationStore.open(at: path)
    #expect(try reopened.load() == before)
    #expect(try reopened.load()?.record.tags.contains("kept") == true)
    // The migrated file takes the new column: a save writes it, a load reads it back.
    var updated = before
    updated.scheduler.retryAfterUntil = Instant(99)
    try reopened.save(updated)
    #expect(try reopened.load()?.scheduler.retryAfterUntil == Instant(99))
  }

  @Test("R4.3 the shipped SDKs' Retry-After gate survives a restart too")
  func retryAfterGate() async throws {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId("0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b")
      .setAccessToken("store-test-access-token1").setMarketingCloudServerUrl("http://127.0.0.1:9")
      .setPlatform(.android).setSDKProfile(.android).build()
    let f = try EngineFixture(
      transport: InMemoryTransport { _ in .answered(status: 429, retryAfter: 300) },
      configuration: configuration, environment: .demo(.android, profile: .android))
    try await f.engine.launch()
    try await f.advance(to: 10)
    let snapshot = try await f.engine.snapshot()
    #expect(snapshot.state.scheduler.retryAfterUntil == Instant(300))
    #expect(try f.store.load() == snapshot.state)
  }

  @Test("state files are created 0600 in a 0700 folder")
  func privateFiles() async throws {
    let folder = try temporaryDirectory().appendingPathComponent("nested")
    let path = folder.appendingPathComponent("state.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    try await f.engine.apply(.addTag("x"))
    func mode(_ path: String) throws -> Int {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
    #expect(try mode(path) == 0o600)
    #expect(try mode(path + "-wal") == 0o600)
    #expect(try mode(folder.path) == 0o700)
  }

  @Test("a file that is not a database: a clear error naming it, and the file untouched")
  func garbageFile() throws {
    let path = try temporaryDirectory().appendingPathComponent("state.sqlite").path
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try RegistrationStore.open(at: path)
    } throws: { error in
      guard case .corrupt(let named, _) = error as? StoreError else { return false }
      return named == path && "\(error)".contains(path)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
  }

  @Test("a truncated store: a clear error naming it, never wiped; moveAside resets on request")
  func truncatedFile() async throws {
    let folder = try temporaryDirectory()
    let path = folder.appendingPathComponent("state.sqlite").path
    do {
      let f = try EngineFixture(store: RegistrationStore.open(at: path))
      try await f.engine.launch()
      for number in 0..<200 {
        try await f.engine.apply(
          .setAttribute(key: "K\(number)", value: String(repeating: "v", count: 200)))
      }
      await f.engine.shutDown()
    }
    // Fold the WAL into the main file, as a clean close would, then cut the file short.
    let checkpoint = try RegistrationStore.open(at: path)
    _ = try checkpoint.load()
    let full = try Data(contentsOf: URL(fileURLWithPath: path))
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let truncated = full.prefix(full.count / 2)
    try truncated.write(to: URL(fileURLWithPath: path))
    #expect {
      let store = try RegistrationStore.open(at: path)
      _ = try store.load()
    } throws: { error in
      guard case .corrupt(let named, _) = error as? StoreError else { return false }
      return named == path
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == truncated)
    let aside = try RegistrationStore.moveAside(path: path)
    #expect(FileManager.default.fileExists(atPath: aside))
    #expect(!FileManager.default.fileExists(atPath: path))
    let fresh = try RegistrationStore.open(at: path)
    #expect(try fresh.load() == nil)
  }

  @Test("a damaged row names its table")
  func damagedRow() async throws {
    let path = try temporaryDirectory().appendingPathComponent("state.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    await f.engine.shutDown()
    // Damage a JSON column through SQLite itself, as a bad tool or a bit flip might.
    let python = try await runTool(
      "python3",
      [
        "-c",
        """
        import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE record SET tags='{oops'"); c.commit()
        """, path,
      ])
    #expect(python.status == 0, "\(python.stderr)")
    #expect {
      _ = try RegistrationStore.open(at: path).load()
    } throws: { error in
      "\(error)".contains("table record") && "\(error)".contains(path)
    }
  }

  @Test("the history keeps each send with its answer")
  func history() async throws {
    let answers = InMemoryTransport { request in
      request.payload.tags?.contains("ok") == true
        ? .answered(status: 201, retryAfter: nil) : .transportFailed("connection refused")
    }
    let f = try EngineFixture(transport: answers)
    try await f.engine.launch()
    try await f.advance(to: 0)
    try await f.engine.apply(.addTag("ok"))
    try await f.advance(to: 60)
    let history = try await f.engine.history()
    #expect(history.map(\.status) == [201, nil])
    #expect(history.last?.error == "connection refused")
    #expect(history.first?.body.contains("\"ok\"") == true)
  }
}
