import Foundation
import RegistrationCore
import RegistrationEngine
import Synchronization
import TestSupport
import Testing

@Suite("RegistrationEngine")
struct EngineTests {
  @Test("R3.1, R6.1 the initial registration: POST, bearer token, JSON, User-Agent")
  func initialRequest() async throws {
    let f = try EngineFixture()
    try await f.engine.launch()
    try await f.advance(to: 0)
    let request = try #require(f.transport.requests.first)
    #expect(request.url.absoluteString == "http://127.0.0.1:9/device/v1/registration")
    #expect(request.header("Authorization") == "Bearer \(testToken)")
    #expect(request.header("Content-Type") == "application/json")
    #expect(request.header("Accept") == "application/json")
    let agent = try #require(request.header("User-Agent"))
    #expect(agent.contains("MobilePushSDK/8.1.0") && agent.contains("App/1.0.0"))
    #expect(f.log.types.starts(with: ["launched", "edited", "scheduled", "sending", "sent"]))
    let history = try await f.engine.history()
    #expect(history.map(\.status) == [201])
  }

  @Test("R1.4 an acknowledged edit is already in the store when apply returns")
  func durableBeforeAcknowledged() async throws {
    let folder = try temporaryDirectory()
    let path = folder.appendingPathComponent("state.sqlite").path
    let f = try EngineFixture(store: RegistrationStore.open(at: path))
    try await f.engine.launch()
    try await f.engine.apply(.setAttribute(key: "CODE", value: "FREE99"))
    // A second, independent connection sees it: it is committed, not cached.
    let other = try RegistrationStore.open(at: path)
    let stored = try #require(try other.load())
    #expect(stored.record.attributes["CODE"] == "FREE99")
    #expect(stored.pending.map(\.target.kind).contains(.attribute))
  }

  @Test("R4.3 a restart in the middle of a backoff keeps the attempt count and the due time")
  func restartMidBackoff() async throws {
    let folder = try temporaryDirectory()
    let path = folder.appendingPathComponent("state.sqlite").path
    let transport = InMemoryTransport { _ in .answered(status: 503, retryAfter: nil) }
    let f = try EngineFixture(store: RegistrationStore.open(at: path), transport: transport)
    try await f.engine.launch()
    try await f.advance(to: 200)  // fails at 0, 60, 180; next at 420
    let before = try await f.engine.snapshot()
    #expect(before.state.scheduler.retry?.failures == 3)
    #expect(before.plan == .due(at: Instant(420), reason: .retry, openedBy: nil))
    try await f.engine.apply(.addTag("edited-in-backoff"))
    // A new process: new store connection, new engine.
    await f.engine.shutDown()
    let reopened = try EngineFixture(
      store: RegistrationStore.open(at: path), clock: f.clock, transport: transport)
    try await reopened.engine.launch()
    let after = try await reopened.engine.snapshot()
    #expect(after.state.scheduler.retry?.failures == 3)
    #expect(after.plan == .due(at: Instant(420), reason: .retry, openedBy: nil))
    transport.setResponder { _ in .answered(status: 201, retryAfter: nil) }
    try await reopened.advance(to: 419.999)
    #expect(transport.requests.count == 3)
    try await reopened.advance(to: 420)
    #expect(transport.requests.count == 4)
    #expect(transport.requests.last?.payload.tags?.contains("edited-in-backoff") == true)
    #expect(try await reopened.engine.snapshot().state.scheduler.retry == nil)
  }

  @Test("R3.3 through the engine: an edit during a send in flight goes in the next one")
  func editWhileInFlight() async throws {
    let f = try EngineFixture()
    try await f.engine.launch()
    f.transport.setHolding(true)
    try await f.engine.tick()
    await f.transport.waitForRequests(1)
    try await f.engine.apply(.addTag("in-flight"))
    #expect(try await f.engine.snapshot().inFlight != nil)
    f.transport.release(with: .answered(status: 201, retryAfter: nil))
    await f.engine.settle()
    f.transport.setHolding(false)
    let snapshot = try await f.engine.snapshot()
    #expect(snapshot.state.pending.map(\.target) == [ChangeTarget(.tag, "in-flight")])
    #expect(f.transport.requests[0].payload.tags?.contains("in-flight") == false)
    try await f.advance(to: 60)
    #expect(f.transport.requests.count == 2)
    #expect(f.transport.requests[1].payload.tags?.contains("in-flight") == true)
  }

  @Test("R5.1, R5.2 listeners get each registration as sent; one may remove itself in its callback")
  func listeners() async throws {
    let f = try EngineFixture()
    let everyTime = Mutex<[RegistrationPayload]>([])
    let once = Mutex<Int>(0)
    let engine = f.engine
    await engine.addRegistrationListener { delivery, _ in
      if case .registration(let payload) = delivery { everyTime.withLock { $0.append(payload) } }
    }
    await engine.addRegistrationListener { _, id in
      once.withLock { $0 += 1 }
      await engine.removeRegistrationListener(id)
    }
    try await engine.launch()
    try await f.advance(to: 0)
    try await engine.apply(.addTag("second"))
    try await f.advance(to: 60)
    #expect(everyTime.withLock { $0.count } == 2)
    #expect(everyTime.withLock { $0.last?.tags?.contains("second") } == true)
    #expect(once.withLock { $0 } == 1)
  }

  @Test("R5.3 the event stream carries every decision in order")
  func eventStream() async throws {
    let f = try EngineFixture(
      transport: InMemoryTransport { _ in .answered(status: 500, retryAfter: nil) })
    let stream = await f.engine.events()
    try await f.engine.launch()
    try await f.advance(to: 0)
    try await f.engine.apply(.setAttribute(key: "contactKey", value: "x"))
    await f.engine.shutDown()
    var types: [String] = []
    for await event in stream { types.append(event.event.type) }
    #expect(
      types == [
        "launched", "edited", "scheduled", "sending", "failed", "scheduled", "inputRejected",
      ])
    #expect(types == f.log.types)
  }

  @Test("R3.2 a device field changed since the last launch schedules a registration at launch")
  func changedEnvironmentAtLaunch() async throws {
    let f = try EngineFixture()
    try await f.engine.launch()
    try await f.advance(to: 100)
    var env = DeviceEnvironment.demo(.iOS)
    env.appVersion = "2.0.0"
    env.deviceToken = "new-token"
    let next = try await f.restarted(environment: env)
    try await next.engine.launch()
    #expect(await next.engine.nextDeadline == Instant(160))
    try await next.advance(to: 160)
    #expect(next.transport.requests.last?.payload.appVersion == "2.0.0")
    #expect(next.transport.requests.last?.payload.deviceToken == "new-token")
  }

  @Test("the driver loop sleeps until the deadline and wakes for edits, with no ticker")
  func runLoop() async throws {
    let f = try EngineFixture()
    try await f.engine.launch()
    let engine = f.engine
    let runner = Task { await engine.run() }
    await f.transport.waitForRequests(1)  // the initial registration, due at once
    try await engine.apply(.addTag("loop"))
    #expect(await engine.nextDeadline == Instant(60))
    f.clock.advance(to: Instant(60))
    await f.transport.waitForRequests(2)
    #expect(f.transport.requests[1].payload.tags?.contains("loop") == true)
    runner.cancel()
    await runner.value
  }

  @Test("an engine that was shut down refuses work instead of writing over its successor")
  func shutDownRefuses() async throws {
    let f = try EngineFixture()
    try await f.engine.launch()
    await f.engine.shutDown()
    await #expect(throws: EngineError.shutDown) { try await f.engine.apply(.addTag("late")) }
  }
}
