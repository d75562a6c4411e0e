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

  /// What reading `tenant`'s demographics failed with; an issue when it answered.
  static func failure(_ tenant: StandInTenant) async throws -> TenantFailure? {
    let client = try Self.client(tenant, time: VirtualTime(), exchange: 60)
    do throws(TenantFailure) {
      let read = try await client.demographics()
      Issue.record("the tenant was read: \(read)")
      return nil
    } catch {
      return error
    }
  }

  @Test("a page of 500,000 empty items is refused before it is decoded, saying why")
  func emptyItems() async throws {
    let tenant = try StandInTenant(.definitionsOfEmptyItems(500_000))
    defer { tenant.stop() }
    let error = try #require(try await Self.failure(tenant))
    #expect("\(error)".contains("the page holds 500,001 JSON objects"), "\(error)")
  }

  @Test(
    "a page of 2,500,000 zeros is refused before it is decoded: values counted, not only objects")
  func zeros() async throws {
    let tenant = try StandInTenant(.definitionsOfZeros(2_500_000))
    defer { tenant.stop() }
    let error = try #require(try await Self.failure(tenant))
    #expect("\(error)".contains("the page holds about 2,500,005 JSON values"), "\(error)")
  }

  @Test(
    "pages past the 200th are not read, and a set not among the read is not known, never absent")
  func pagesNotRead() async throws {
    let tenant = try StandInTenant(.endlessOtherSets)
    defer { tenant.stop() }
    let error = try #require(try await Self.failure(tenant))
    guard case .notAllRead = error else {
      Issue.record("said as something else: \(error)")
      return
    }
    #expect(!error.isTenantProblem, "not checked (exit 2), not \"the tenant has none\" (exit 1)")
    #expect(
      "\(error)".contains(
        "RegScope read 400 attribute sets (200 pages) of the 1,000,000 the tenant counts and no further, without finding the MobilePush Demographics set"
      ),
      "\(error)")
    #expect("\(error)".contains("whether the tenant has it is not known"), "\(error)")
    #expect(tenant.restCalls.count == 200)
  }

  @Test("the pages stop at the one holding MobilePush Demographics, whatever count says")
  func stopsAtTheSet() async throws {
    // Two sets a page: the set is the third, on page 2; the tenant counts a million.
    let tenant = try StandInTenant(.definitionsCount("1000000"))
    defer { tenant.stop() }
    let client = try Self.client(tenant, time: VirtualTime(), exchange: 60)
    let found = try await client.demographics()
    #expect(found.setName == "MobilePush Demographics")
    #expect(tenant.restCalls.count == 2, "\(tenant.restCalls)")
  }
}
