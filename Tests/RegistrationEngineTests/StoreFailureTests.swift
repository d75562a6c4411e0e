import Clocks
import Foundation
import GRDB
import RegistrationCore
import Testing

@testable import RegistrationEngine

/// Another process holding the store's write lock: every write of the engine fails with
/// SQLITE_BUSY until `release`. A real failure, not a stub: the engine's own SQLite refuses.
final class StoreLock {
  private let database: DatabaseQueue

  init(path: String) throws {
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true  // the lock is held across accesses on purpose
    database = try DatabaseQueue(path: path, configuration: configuration)
    try database.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
  }

  func release() throws {
    try database.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
  }
}

@Suite("the engine when its store refuses a write (R1.4, R4)")
struct StoreFailureTests {
  @Test("an answer that cannot be stored ends the send: it counts as failed and is retried")
  func answerNotStored() async throws {
    let path = try temporaryDirectory().appendingPathComponent("device.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    try await f.advance(to: 0)  // the initial registration
    try await f.engine.apply(.addTag("sports"))
    f.transport.setHolding(true)
    f.clock.advance(to: Instant(60))
    try await f.engine.tick()
    await f.transport.waitForRequests(2)
    let lock = try StoreLock(path: path)
    f.transport.release(with: .answered(status: 201, retryAfter: nil))
    await f.engine.settle()
    let snapshot = try await f.engine.snapshot()
    #expect(snapshot.inFlight == nil)
    #expect(snapshot.storeProblem != nil)
    let failed = f.log.all.last { $0.event.type == "failed" }
    guard case .failed(_, _, _, let error, let retryAt, _, _) = failed?.event else {
      Issue.record("no failed event: \(f.log.types)")
      return
    }
    #expect(error?.contains("could not be stored") == true)
    #expect(retryAt == Instant(120))
    // Once the store is writable again, the retry delivers the tag.
    try lock.release()
    f.transport.setHolding(false)
    try await f.advance(to: 120)
    #expect(f.transport.requests.count == 3)
    #expect(f.transport.requests.last?.payload.tags?.contains("sports") == true)
    #expect(try await f.engine.snapshot().storeProblem == nil)
  }

  @Test("a tick whose save fails does not end the run loop; it tries again and sends")
  func runLoopSurvives() async throws {
    let path = try temporaryDirectory().appendingPathComponent("device.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    try await f.advance(to: 0)
    try await f.engine.apply(.addTag("sports"))
    let engine = f.engine
    let lock = try StoreLock(path: path)
    let runner = Task { await engine.run() }
    f.clock.advance(to: Instant(60))
    // The run loop ticks, the save fails, the problem is shown.
    var problem: String?
    for _ in 0..<10_000 where problem == nil {
      await Task.yield()
      problem = try await engine.snapshot().storeProblem
    }
    #expect(problem != nil)
    #expect(f.transport.requests.count == 1)
    try lock.release()
    f.clock.advance(by: RegistrationEngine.storeRetryInterval)
    await f.transport.waitForRequests(2)
    #expect(f.transport.requests.last?.payload.tags?.contains("sports") == true)
    runner.cancel()
    await runner.value
  }
}
