import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TenantAPI

/// #52, items 5 and 6: one deadline over a whole exchange with the tenant (every page, the
/// token on the way, each 429 waited out), in virtual time; a page of millions of empty items
/// refused before it is decoded.
@Suite("one deadline over a tenant exchange", .timeLimit(.minutes(10)))
struct ExchangeDeadlineTests {
  /// Time that moves only when the client waits.
  final class VirtualTime: Sendable {
    let instant = Mutex(ContinuousClock.now)
  }

  static func client(_ tenant: StandInTenant, time: VirtualTime, exchange: Double) throws
    -> TenantClient
  {
    TenantClient(
      try TenantFile.load(path: try tenant.file()).credentials, deadline: 30,
      exchangeDeadline: exchange, now: { time.instant.withLock { $0 } },
      wait: { duration in time.instant.withLock { $0 += duration } })
  }

  @Test("pages that never end, a 429 of 20 s between each: late after 60 s, not 200 pages later")
  func endlessPages() async throws {
    let tenant = try StandInTenant(.endlessDefinitions(retryAfter: "20"))
    defer { tenant.stop() }
    let time = VirtualTime()
    let started = time.instant.withLock { $0 }
    let client = try Self.client(tenant, time: time, exchange: 60)
    do throws(TenantFailure) {
      _ = try await client.demographics()
      Issue.record("an endless tenant answered")
    } catch {
      guard case .exchangeLate = error else {
        Issue.record("\(error)")
        return
      }
      #expect("\(error)".contains("took longer than 1 min in all"), "\(error)")
    }
    #expect(tenant.restCalls.count <= 6, "\(tenant.restCalls.count) calls: the deadline ended it")
    #expect(time.instant.withLock { $0 } - started <= .seconds(60))
  }

  @Test("a page of 500,000 empty items is refused before it is decoded, saying why")
  func emptyItems() async throws {
    let tenant = try StandInTenant(.definitionsOfEmptyItems(500_000))
    defer { tenant.stop() }
    let client = try Self.client(tenant, time: VirtualTime(), exchange: 60)
    do throws(TenantFailure) {
      _ = try await client.demographics()
      Issue.record("a page of half a million items was taken")
    } catch {
      #expect("\(error)".contains("the page holds 500,001 JSON objects"), "\(error)")
    }
  }
}
