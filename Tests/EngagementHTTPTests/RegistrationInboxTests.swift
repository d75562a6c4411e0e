import Clocks
import EngagementCore
import EngagementServer
import RegistrationCore
import Synchronization
import TestSupport
import Testing

@testable import EngagementHTTP

/// The answers a test's registrations got: device, status, subscriber token.
private final class Replies: Sendable {
  let list = Mutex<[(String, Int?, String?)]>([])
}

@Suite("the inbox: registrations taken onto the server's actor a batch a hop")
struct RegistrationInboxTests {
  private static func server() throws -> LocalEngagementServer {
    try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token, processingDelay: 60),
      store: ServerStore.inMemory(), clock: VirtualClock())
  }

  private static func waiting(
    _ device: String, to server: LocalEngagementServer,
    into replies: Replies
  ) -> RegistrationInbox.Waiting {
    let validation = EngagementServerCore.validate(
      authorization: "Bearer \(token)", body: Array(sdkBody(device: device, platform: "iOS").utf8),
      settings: server.validationSettings)
    return RegistrationInbox.Waiting(validation, facts: RequestFacts()) { answer, token in
      var status: Int?
      if case .respond(let code, _, _) = answer { status = code }
      replies.list.withLock { $0.append((device, status, token)) }
    }
  }

  @Test("what waits is received in one hop, in the order it came, each answered once (S1)")
  func batchInOrder() async throws {
    let server = try Self.server()
    let inbox = RegistrationInbox(server)
    let replies = Replies()
    // Only the first of a batch starts a delivery; the rest join it.
    let started = (0..<5).map { inbox.submit(Self.waiting("D\($0)", to: server, into: replies)) }
    #expect(started == [true, false, false, false, false])
    await inbox.deliver()
    let answered = replies.list.withLock { $0 }
    #expect(answered.map(\.0) == ["D0", "D1", "D2", "D3", "D4"])
    #expect(answered.allSatisfy { $0.1 == 201 && $0.2?.hasPrefix("rs-") == true })
    #expect(await server.stats().pending == 5)
    // Delivered and empty: the next registration starts a delivery of its own.
    #expect(inbox.submit(Self.waiting("D5", to: server, into: replies)))
    await inbox.deliver()
    #expect(replies.list.withLock { $0.map(\.0) }.last == "D5")
    #expect(await server.stats().pending == 6)
  }

  @Test("a caller that awaits its answer (Hummingbird's route) gets its own, its device's token")
  func awaitedAnswers() async throws {
    let server = try Self.server()
    let inbox = RegistrationInbox(server)
    let answers = await withTaskGroup(of: (String, Int?, String?).self) { group in
      for index in 0..<20 {
        group.addTask {
          let device = "A\(index)"
          let validation = EngagementServerCore.validate(
            authorization: "Bearer \(token)",
            body: Array(sdkBody(device: device, platform: "iOS").utf8),
            settings: server.validationSettings)
          let (answer, subscriberToken) = await inbox.receive(validation, facts: RequestFacts())
          guard case .respond(let status, _, _) = answer else { return (device, nil, nil) }
          return (device, status, subscriberToken)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers.count == 20 && answers.allSatisfy { $0.1 == 201 })
    for (device, _, subscriberToken) in answers {
      #expect(await server.watchedDevice(device)?.subscriberToken == subscriberToken)
    }
    #expect(server.entered.load(ordering: .relaxed) == 20)
  }

  @Test("a delivery with nothing waiting answers nothing and keeps the server as it was")
  func emptyDelivery() async throws {
    let server = try Self.server()
    await RegistrationInbox(server).deliver()
    #expect(await server.stats().pending == 0)
  }
}
