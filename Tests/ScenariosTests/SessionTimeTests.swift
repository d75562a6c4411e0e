import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Testing

@testable import Scenarios

@Suite("the live session's time controls")
struct SessionTimeTests {
  @Test("jump goes to the next deadline of the engine or the local server, whichever is first")
  func jumpToNextDeadline() async throws {
    let clock = ScaledClock(rate: 0, start: Instant(1000))
    let place = SimulationPlace(
      clock: clock, deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory(), live: false)
    let simulation = try await Simulation.start(SimulationSetup(), place: place)
    #expect(await simulation.jumpToNextDeadline() == nil)
    // A registration waiting to be processed: the server's deadline, 5 minutes on.
    let setup = SimulationSetup()
    let body = #"{"deviceID":"D1","etAppId":"\#(setup.appID)","platform":"iOS"}"#
    _ = await simulation.server.receive(
      authorization: "Bearer \(setup.accessToken)", body: Array(body.utf8))
    #expect(await simulation.jumpToNextDeadline() == Instant(1300))
    #expect(clock.now() == Instant(1300))
    await simulation.stop()
  }
}
