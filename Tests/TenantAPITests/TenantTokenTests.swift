import Foundation
import Synchronization
import TenantAPI
import TestSupport
import Testing

/// The token: kept until shortly before `expires_in` runs out, then renewed; one refused as
/// expired is renewed once and the call made again.
@Suite("the tenant's token, kept and renewed", .timeLimit(.minutes(10)))
struct TenantTokenTests {
  /// A clock that moves only when told.
  final class Offset: Sendable {
    private let value = Mutex<Duration>(.zero)
    let start = ContinuousClock.now
    func set(_ duration: Duration) { value.withLock { $0 = duration } }
    var now: ContinuousClock.Instant { start + value.withLock { $0 } }
  }

  static func client(_ tenant: StandInTenant, offset: Offset) throws -> TenantClient {
    let loaded = try TenantFile.load(path: try tenant.file())
    return TenantClient(
      loaded.credentials, deadline: Double(HangGuard.seconds), now: { offset.now })
  }

  @Test("kept until a quarter of its life (at most 5 minutes) before expires_in, then renewed")
  func keptThenRenewed() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let offset = Offset()
    let client = try Self.client(tenant, offset: offset)
    _ = try await client.demographics()
    // The stand-in's tokens live 1079 s: renewed from 1079 - 269.75 s on.
    offset.set(.seconds(809))
    _ = try await client.demographics()
    #expect(tenant.tokensIssued == 1)
    offset.set(.seconds(810))
    _ = try await client.demographics()
    #expect(tenant.tokensIssued == 2)
    let authorizations = tenant.restCalls.map(\.authorization)
    #expect(authorizations.prefix(4).allSatisfy { $0 == "Bearer token-1" })
    #expect(authorizations.dropFirst(4).allSatisfy { $0 == "Bearer token-2" })
    #expect(await client.tokensRequested == 2)
  }

  @Test("a token the tenant refuses as expired: renewed once, the call made again")
  func expiredToken() async throws {
    let tenant = try StandInTenant(.expireFirstToken)
    defer { tenant.stop() }
    let client = try Self.client(tenant, offset: Offset())
    let found = try await client.demographics()
    #expect(found.attributes == StandInTenant.demographics)
    #expect(tenant.tokensIssued == 2)
    #expect(tenant.restCalls.first?.authorization == "Bearer token-1")
    #expect(tenant.restCalls.dropFirst().allSatisfy { $0.authorization == "Bearer token-2" })
  }

  @Test("an expires_in past any clock (1e30, 99999999999999999999): kept a day, no trap")
  func hugeLife() async throws {
    for life in ["1e30", "99999999999999999999"] {
      let tenant = try StandInTenant(.tokenLife(life))
      defer { tenant.stop() }
      let offset = Offset()
      let client = try Self.client(tenant, offset: offset)
      _ = try await client.demographics()
      offset.set(.seconds(86_400 - 301))
      _ = try await client.demographics()
      #expect(tenant.tokensIssued == 1, "\(life)")
      offset.set(.seconds(86_400))
      _ = try await client.demographics()
      #expect(tenant.tokensIssued == 2, "\(life): renewed within a day")
    }
  }
}
