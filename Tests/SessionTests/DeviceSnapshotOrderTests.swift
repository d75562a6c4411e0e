import Clocks
import EngagementServer
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues
import Testing

/// A device session's snapshot reads two actors, the device then the server, then the clock
/// (`DeviceSession.snapshot`): not one instant, but never a device ahead of its server or a
/// clock behind what it shows, whatever runs meanwhile.
@Suite("a device session's snapshot, read in order", .timeLimit(.minutes(1)))
struct DeviceSnapshotOrderTests {
  @Test("while a live device registers: what the device saw answered the server holds")
  func deviceNeverAheadOfServer() async throws {
    // Fast enough that the first registration goes within the test's first moments.
    let clock = ScaledClock(rate: 1000, start: Instant(1000))
    let place = SessionPlace(
      clock: .scaled(clock, live: true), deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory())
    let session = try await DeviceSession.start(SessionSetup(), place: place)
    let launch = Task { try await session.execute(.launch) }
    var problems: [String] = []
    var snapshots = 0
    while true {
      guard case .device(let view) = await session.snapshot() else {
        Issue.record("a device session pushes a device snapshot")
        break
      }
      snapshots += 1
      let received = view.server?.stats.received ?? 0
      if let device = view.device {
        if device.state.lastAcknowledged != nil && received == 0 {
          problems.append("the device was answered, the server holds nothing")
        }
        if view.now < device.now { problems.append("now \(view.now) before the device's") }
      }
      if let server = view.server, view.now < server.now {
        problems.append("now \(view.now) before the server's \(server.now)")
      }
      if view.device?.state.lastAcknowledged != nil { break }
    }
    _ = try await launch.value
    #expect(problems.isEmpty, "in \(snapshots) snapshots: \(problems.prefix(5))")
    await session.stop()
  }
}
