import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// The watch against a hostile or merely busy world: what it forgets, and how it says so.
@Suite("the watch's limits", .serialized, .timeLimit(.minutes(10)))
struct WatchLimitsTests {
  typealias Rig = WatchOverHTTPTests.Rig

  /// Registers `device` with the server directly (no HTTP), as an Android app.
  static func register(_ server: LocalEngagementServer, _ device: String) async -> String? {
    let body = sdkBody(device: device, app: watchAppID)
    return await server.receive(
      EngagementServerCore.validate(
        authorization: "Bearer \(watchToken)", body: Array(body.utf8),
        settings: server.validationSettings),
      facts: RequestFacts(userAgent: androidAgent)
    ).subscriberToken
  }

  @Test("the device seen longest ago is dropped, not the first seen; its timeline answers 410")
  func evictsLeastRecentlySeen() async throws {
    let rig = try await Rig()
    _ = await Self.register(rig.server, "d1")
    _ = await Self.register(rig.server, "d2")
    for index in 0..<(DeviceWatch.deviceLimit - 2) {
      _ = await Self.register(rig.server, "other-\(index)")
    }
    // d1 comes back: now d2 is the one seen longest ago.
    _ = await Self.register(rig.server, "d1")
    _ = await Self.register(rig.server, "newcomer")
    #expect(await rig.server.watchedDevice("d1") != nil)
    #expect(await rig.server.watchedDevice("d2") == nil)
    let (kept, _, _) = try await rig.raw("GET", "/api/devices/d1/registrations", headers: [])
    #expect(kept == 200)
    let (gone, _, body) = try await rig.raw("GET", "/api/devices/d2/registrations", headers: [])
    #expect(gone == 410, "\(body)")
    #expect(body.contains("the watch keeps the 5,000 devices seen most recently"))
    let (never, _, _) = try await rig.raw("GET", "/api/devices/nobody/registrations", headers: [])
    #expect(never == 404)
    await rig.stop()
  }

  @Test("a device id with a space, a slash, a percent sign or non-ASCII is found by its timeline")
  func percentDecoded() async throws {
    let rig = try await Rig()
    let id = "my phone/1%é"
    let (status, _, _) = try await rig.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: id, app: watchAppID))
    #expect(status == 201)
    let encoded = "my%20phone%2F1%25%C3%A9"
    let (found, _, body) = try await rig.raw(
      "GET", "/api/devices/\(encoded)/registrations", headers: [])
    #expect(found == 200, "\(body)")
    #expect(body.contains(#""deviceID" : "my phone\/1%é""#) || body.contains("my phone/1%é"))
    // The sync route finds the same device.
    _ = try await rig.raw(
      "POST", "/device/v1/\(watchAppID)/sync/\(encoded)", headers: Rig.android, body: "{}")
    #expect(await rig.server.watchedDevice(id)?.otherRoutes["sync"] == 1)
    await rig.stop()
  }

  @Test("two fresh servers hand the same first device different subscriber tokens")
  func tokensAreNotGuessable() async throws {
    var tokens: [String] = []
    for _ in 0..<2 {
      let server = try LocalEngagementServer(
        settings: ServerSettings(appID: watchAppID, accessToken: watchToken),
        store: ServerStore.inMemory(), clock: VirtualClock())
      tokens.append(try #require(await Self.register(server, "FIRST")))
    }
    #expect(tokens[0] != tokens[1])
    #expect(tokens.allSatisfy { $0.hasPrefix("rs-") && $0.count == 3 + 32 })
    var fixed = DeviceWatch(makeToken: { "rs-fixed" })
    let token = fixed.record(
      ReceivedRegistration(
        deviceID: "D", payload: nil, body: [], facts: RequestFacts(), at: .zero, status: 201,
        retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    #expect(token == "rs-fixed")
  }
}
