import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues
import Testing

@testable import Scenarios

@Suite("the live session's time controls")
struct SessionTimeTests {
  @Test("jump goes to the next deadline of the engine or the local server, whichever is first")
  func jumpToNextDeadline() async throws {
    let clock = ScaledClock(rate: 0, start: Instant(1000))
    let place = SessionPlace(
      clock: .scaled(clock, live: false), deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory())
    let simulation = try await DeviceSession.start(SessionSetup(), place: place)
    #expect(await simulation.jumpToNextDeadline() == nil)
    // A registration waiting to be processed: the server's deadline, 5 minutes on.
    let setup = SessionSetup()
    let body = #"{"deviceID":"D1","etAppId":"\#(setup.appID)","platform":"iOS"}"#
    _ = await simulation.server.receive(
      authorization: "Bearer \(setup.accessToken)", body: Array(body.utf8))
    #expect(await simulation.jumpToNextDeadline() == Instant(1300))
    #expect(clock.now() == Instant(1300))
    await simulation.stop()
  }
}

@Suite("the run log")
struct RunLogTests {
  @Test("a live session's log keeps the newest events and exact counts; a scenario's keeps all")
  func bounded() {
    let live = RunLog(limit: 100)
    let unbounded = RunLog()
    for index in 0..<1_000 {
      let event = RunEvent(t: Instant(Double(index)), body: .engine(.delayed(reason: "r\(index)")))
      live.append(event)
      unbounded.append(event)
    }
    #expect(live.all.count <= 125 && live.all.count >= 100)
    #expect(live.all.last?.t == Instant(999))
    #expect(live.count(.delayed) == 1_000)
    #expect(unbounded.all.count == 1_000 && unbounded.count(.delayed) == 1_000)
  }
}
