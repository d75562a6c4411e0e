import EngagementCore
import EngagementServer
import RegistrationCore
import Session
import SessionHTTP
import SessionValues
import Testing

/// A receiver's screen is read from one turn of the server's actor: while apps register, every
/// snapshot counts exactly the registrations whose devices it shows.
@Suite("the receiver's snapshot, in one turn", .timeLimit(.minutes(10)))
struct ReceiverSnapshotTests {
  @Test("under a flood of registrations, the counts and the watched devices always agree")
  func countsAgreeWithTheWatch() async throws {
    let opened = try await SessionFactory(network: HTTPNetwork()).open(
      .receiver(try SessionFactoryTests.receiverSetup()))
    let receiver = try #require(opened.receiver)
    let server = receiver.server
    // Fewer devices than the snapshot shows (200), each registering once.
    let (senders, each) = (4, 40)
    let flood = Task {
      await withTaskGroup(of: Void.self) { group in
        for sender in 0..<senders {
          group.addTask {
            for index in 0..<each {
              let body =
                #"{"deviceID":"D\#(sender)-\#(index)","etAppId":"app","platform":"iOS"}"#
              _ = await server.receive(
                authorization: "Bearer token-0123456789", body: Array(body.utf8))
            }
          }
        }
      }
    }
    var torn: [String] = []
    var snapshots = 0
    // Bounded, and a turn for the senders between two snapshots: an unbounded loop of actor
    // calls kept a cooperative thread of the whole parallel test run busy.
    while snapshots < 400 {
      await Task.yield()
      let finished = await server.stats().received == senders * each
      guard case .receiver(let view) = await receiver.snapshot() else {
        Issue.record("a receiver pushes a receiver snapshot")
        break
      }
      snapshots += 1
      let received = view.server?.stats.received ?? -1
      if received != view.watched.count { torn.append("\(received) vs \(view.watched.count)") }
      if finished { break }
    }
    await flood.value
    #expect(torn.isEmpty, "counts and devices apart in \(torn.count) of \(snapshots): \(torn)")
    await receiver.stop()
  }
}
