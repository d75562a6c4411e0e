import Clocks
import EngagementCore
import EngagementServer
import NIOEmbedded
import TestSupport
import Testing

@testable import EngagementHTTP

@Suite("the fast path's inboxes: one an event loop")
struct LoopInboxesTests {
  @Test("a loop's connections share its inbox; another loop has its own")
  func oneALoop() throws {
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token),
      store: ServerStore.inMemory(), clock: VirtualClock())
    let inboxes = LoopInboxes(server)
    let (one, other) = (EmbeddedEventLoop(), EmbeddedEventLoop())
    #expect(inboxes.inbox(for: one) === inboxes.inbox(for: one))
    #expect(inboxes.inbox(for: one) !== inboxes.inbox(for: other))
    #expect(inboxes.inbox(for: other) === inboxes.inbox(for: other))
  }
}
