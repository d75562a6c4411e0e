import EngagementCore
import EngagementServer
import RegistrationEngine
import Session
import SessionHTTP
import Synchronization
import Testing

/// #53: the receiver session owns the tenant. Its hook is on the server before the front
/// listens (a `PUT /api/demographics` from the first request on is refused), and its work is
/// started, cancelled and awaited by the session, not by each tool.
@Suite("the receiver session owns the tenant", .timeLimit(.minutes(10)))
struct ReceiverTenantTests {
  /// What the tenant's work saw.
  final class Seen: Sendable {
    let started = Mutex(false)
    let ended = Mutex(false)
    let hookedWhenListening = Mutex<Bool?>(nil)
  }

  /// A tenant that installs a refresh hook and runs until cancelled.
  struct FakeTenant: ReceiverTenant {
    let seen: Seen

    func attach(to server: LocalEngagementServer) async -> @Sendable () async -> Void {
      server.demographicsRefresh.withLock {
        $0 = {
          DemographicsRefreshAnswer(
            refreshed: true, attributeSet: "MobilePush Demographics", attributes: [], added: [],
            removed: [], problem: nil)
        }
      }
      let seen = self.seen
      return {
        seen.started.withLock { $0 = true }
        while !Task.isCancelled { await Task.yield() }
        seen.ended.withLock { $0 = true }
      }
    }
  }

  /// The real network, noting whether the tenant was hooked when the front was opened.
  struct NotingNetwork: SessionNetwork {
    let real = HTTPNetwork()
    let seen: Seen

    func transport() -> any RegistrationTransport { real.transport() }
    func openFront(for server: LocalEngagementServer) async throws -> any ServerFront {
      try await real.openFront(for: server)
    }
    func openReceiver(for server: LocalEngagementServer, options: ReceiverOptions)
      async throws -> any ServerFront
    {
      seen.hookedWhenListening.withLock { $0 = server.hasTenant }
      return try await real.openReceiver(for: server, options: options)
    }
  }

  @Test("hooked before the front listens; the work ends with the session's stop")
  func ownsTheTenant() async throws {
    let seen = Seen()
    var setup = try SessionFactoryTests.receiverSetup()
    setup.tenant = FakeTenant(seen: seen)
    let opened = try await SessionFactory(network: NotingNetwork(seen: seen)).open(
      .receiver(setup))
    let receiver = try #require(opened.receiver)
    #expect(seen.hookedWhenListening.withLock { $0 } == true, "the tenant hooked first")
    while !seen.started.withLock({ $0 }) { await Task.yield() }
    #expect(!seen.ended.withLock { $0 })
    await receiver.stop()
    #expect(seen.ended.withLock { $0 }, "stop cancels and awaits the tenant's work")
  }
}
