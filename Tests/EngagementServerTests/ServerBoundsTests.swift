import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// A registration body of `device` (an iOS SDK's, as `sdkBody` writes it).
func body(device: String, key: String? = nil) -> [UInt8] {
  Array(sdkBody(device: device, platform: "iOS", key: key).utf8)
}

@Suite("a bounded server: memory by what it must know, not by its traffic")
struct ServerBoundsTests {
  @Test("S2 past the in-memory limit, waiting registrations are read back from the store")
  func spill() async throws {
    let clock = VirtualClock()
    let settings = ServerSettings(
      appID: appID, accessToken: token, processingDelay: 60, registrationWindow: 5,
      waitingInMemory: 3)
    let server = try LocalEngagementServer(
      settings: settings, store: ServerStore.inMemory(), clock: clock)
    for index in 0..<20 {
      _ = await server.receive(
        authorization: "Bearer \(token)", body: body(device: "D\(index)", key: "user-\(index)"))
    }
    #expect(await server.stats().pending == 20)
    clock.advance(to: Instant(60))
    await server.processDue()
    let stats = await server.stats()
    #expect(stats.processed == 20 && stats.rejected == 0 && stats.pending == 0)
    #expect(stats.distinctContacts == 20)
    #expect(await server.snapshot().registrations.count == 5)
  }

  @Test("a volatile store forgets finished registrations that left the window")
  func volatileStoreForgets() async throws {
    let clock = VirtualClock()
    let store = try ServerStore.inMemory()
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: appID, accessToken: token, processingDelay: 0, registrationWindow: 4),
      store: store, clock: clock)
    for index in 0..<30 {
      _ = await server.receive(authorization: "Bearer \(token)", body: body(device: "D\(index)"))
      await server.processDue()
      await server.flush()
    }
    let stored = try store.load(window: 1000)
    #expect(stored.recent.count <= 5)
    #expect(stored.recent.last?.id == 30)
  }
}
