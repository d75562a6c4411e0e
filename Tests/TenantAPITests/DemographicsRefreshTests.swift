import Clocks
import Foundation
import RegistrationCore
import Synchronization
import TenantAPI
import TestSupport
import Testing

/// The receiver's demographics kept current (docs/tenant.md): every 15 minutes on the
/// receiver's clock (virtual here), when asked, and kept as they were when the tenant fails.
/// What a closure was given, in order, readable from the test.
final class Recorded<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

@Suite("the tenant's demographics, refreshed", .timeLimit(.minutes(10)))
struct DemographicsRefreshTests {
  /// A refresh on a virtual clock, each outcome and each table applied collected.
  final class Harness: Sendable {
    let tenant: StandInTenant
    let clock = VirtualClock(start: Instant(1_000))
    let refresh: DemographicsRefresh
    let applied = Recorded<[String]>()
    let outcomes: AsyncStream<DemographicsRefresh.Outcome>

    init(_ behaviour: StandInTenant.Behaviour = .good) async throws {
      tenant = try StandInTenant(behaviour)
      let loaded = try TenantFile.load(path: try tenant.file())
      let client = TenantClient(loaded.credentials, deadline: Double(HangGuard.seconds))
      let first = try await client.demographics()
      let (stream, told) = AsyncStream.makeStream(of: DemographicsRefresh.Outcome.self)
      outcomes = stream
      let applied = self.applied
      refresh = DemographicsRefresh(
        client: client, current: first, clock: clock,
        apply: { fresh in applied.append(fresh.attributes) },
        told: { told.yield($0) })
    }

    /// Waits until the refresh loop sleeps on the clock (it has seen the last advance).
    func settled() async {
      while clock.sleepers == 0 { await Task.yield() }
    }
  }

  @Test("every 15 minutes of the receiver's clock: an attribute added in Contact Builder arrives")
  func scheduled() async throws {
    let harness = try await Harness()
    defer { harness.tenant.stop() }
    let loop = Task { await harness.refresh.run() }
    defer { loop.cancel() }
    await harness.settled()
    let callsAtStart = harness.tenant.restCalls.count
    harness.tenant.define(StandInTenant.demographics + ["Plan"])
    harness.clock.advance(by: 14 * 60)
    await harness.settled()
    #expect(harness.tenant.restCalls.count == callsAtStart, "asked before 15 minutes")
    harness.clock.advance(by: 60)
    var outcomes = harness.outcomes.makeAsyncIterator()
    let outcome = try #require(await outcomes.next())
    #expect(outcome.trigger == .schedule)
    #expect(outcome.failure == nil)
    #expect(outcome.added == ["Plan"] && outcome.removed.isEmpty)
    #expect(harness.applied.all == [StandInTenant.demographics + ["Plan"]])
    #expect(
      outcome.described
        == "demographics refreshed from the tenant's MobilePush Demographics (every 15 minutes): 6 attributes, added Plan"
    )
    // One token for the start and the refresh: it lives about 18 minutes.
    #expect(harness.tenant.tokensIssued == 1)
  }

  @Test("asked: read at once, and the next scheduled refresh is 15 minutes after it")
  func asked() async throws {
    let harness = try await Harness()
    defer { harness.tenant.stop() }
    let loop = Task { await harness.refresh.run() }
    defer { loop.cancel() }
    await harness.settled()
    harness.clock.advance(by: 10 * 60)
    harness.tenant.define(["Device ID", "FirstName"])
    let outcome = await harness.refresh.refresh()
    #expect(outcome.trigger == .asked)
    #expect(outcome.removed == ["System Token", "LastName", "Interests"])
    #expect(outcome.described.hasSuffix("2 attributes, removed System Token, LastName, Interests"))
    var outcomes = harness.outcomes.makeAsyncIterator()
    _ = await outcomes.next()
    let calls = harness.tenant.restCalls.count
    // 15 minutes after the start, 5 after the asked refresh: not yet.
    harness.clock.advance(by: 5 * 60)
    await harness.settled()
    #expect(harness.tenant.restCalls.count == calls)
    harness.clock.advance(by: 10 * 60)
    #expect(await outcomes.next()?.trigger == .schedule)
  }

  @Test("a tenant that cannot answer: said, and the table in use is kept, not dropped")
  func failureKeepsTable() async throws {
    let harness = try await Harness()
    harness.tenant.stop()
    let outcome = await harness.refresh.refresh()
    #expect(outcome.failure != nil)
    #expect(outcome.demographics.attributes == StandInTenant.demographics)
    #expect(harness.applied.all.isEmpty)
    #expect(outcome.described.hasPrefix("demographics not refreshed (asked): cannot reach"))
    #expect(
      outcome.described.hasSuffix(
        "still using the tenant's MobilePush Demographics as last read (5 attributes)"))
    #expect(await harness.refresh.demographics.attributes == StandInTenant.demographics)
  }
}
