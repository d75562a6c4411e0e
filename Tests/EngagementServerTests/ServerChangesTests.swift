import Clocks
import RegistrationCore
import Synchronization
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// What changed leaves the server one way (`changes`): an observer sees every change in the
/// order it happened, before the request that made it is answered; a loop waits on one kind.
@Suite("the server's one stream of changes")
struct ServerChangesTests {
  final class Seen: Sendable {
    let changes = Mutex<[String]>([])

    func take() -> [String] {
      changes.withLock { seen in
        defer { seen.removeAll() }
        return seen
      }
    }
  }

  static func named(_ change: ServerChange) -> String {
    switch change {
    case .event(let event, _): "event \(event.type)"
    case .watched: "watched"
    case .schedule: "schedule"
    case .stored: "stored"
    }
  }

  @Test("a request's events, the schedule, the watch, a fault and the store, in order, one stream")
  func everyChangeInOrder() async throws {
    let clock = VirtualClock()
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token, processingDelay: 60),
      store: ServerStore.inMemory(), clock: clock)
    let seen = Seen()
    server.changes.observe { change in seen.changes.withLock { $0.append(Self.named(change)) } }
    let schedule = server.changes.signal(.schedule)
    let body = Array(sdkBody(device: "D1").utf8)
    _ = await server.receive(authorization: "Bearer \(token)", body: body)
    // The first registration sets the processing deadline: the schedule moves.
    #expect(seen.take() == ["event serverReceived", "schedule", "watched"])
    #expect(schedule.generation == 1)
    clock.advance(to: Instant(1))
    _ = await server.receive(
      authorization: "Bearer \(token)", body: Array(sdkBody(device: "D2").utf8))
    // A later deadline behind the first: the processing loop is not woken.
    #expect(seen.take() == ["event serverReceived", "watched"])
    _ = await server.receive(authorization: "Bearer wrong", body: body)
    #expect(seen.take() == ["event serverReceived", "watched"])
    await server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 1))
    #expect(seen.take() == ["schedule"])
    #expect(schedule.generation == 2)
    await server.flush()
    #expect(seen.take() == ["stored"])
    clock.advance(to: Instant(61))
    await server.processDue()
    #expect(seen.take() == ["event serverProcessed", "event serverProcessed"])
  }

  @Test("every observer is told, each in the order of the changes")
  func manyObservers() async throws {
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token, processingDelay: 60),
      store: ServerStore.inMemory(), clock: VirtualClock())
    let (one, other) = (Seen(), Seen())
    server.changes.observe { change in one.changes.withLock { $0.append(Self.named(change)) } }
    server.changes.observe { change in other.changes.withLock { $0.append(Self.named(change)) } }
    for device in ["A", "B", "C"] {
      _ = await server.receive(
        authorization: "Bearer \(token)", body: Array(sdkBody(device: device).utf8))
    }
    let told = one.take()
    #expect(told.count == 7)
    #expect(told == other.take())
  }
}
