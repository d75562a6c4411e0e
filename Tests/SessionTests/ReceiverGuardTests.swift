import EngagementCore
import EngagementServer
import Session
import SessionHTTP
import Testing

/// #53: the demo app's public token never listens off loopback, however the receiver is
/// built: the check is in the receiver's setup, where every way in passes, not only in the
/// tools' options.
@Suite("a receiver's setup refuses the public token off loopback")
struct ReceiverGuardTests {
  @Test("the demo token on 0.0.0.0 is refused before anything listens; the app's own is not")
  func publicToken() async throws {
    var setup = try SessionFactoryTests.receiverSetup()
    setup.settings.accessToken = SessionSetup().accessToken
    setup.options.host = "0.0.0.0"
    await #expect(throws: SessionError.self) {
      _ = try await SessionFactory(network: HTTPNetwork()).open(.receiver(setup))
    }
    setup.options.host = "127.0.0.1"
    let opened = try await SessionFactory(network: HTTPNetwork()).open(.receiver(setup))
    await opened.receiver?.stop()
  }
}
