import Foundation
import TestSupport
import Testing

@testable import EngagementCore

/// The relay's record of a body is the tenant's reading of it: a key twice is its last value
/// on both sides of `--upstream`.
@Suite("the relay reads a body as the tenant does", .serialized, .timeLimit(.minutes(10)))
struct RelayBodyReadingTests {
  typealias Rig = WatchOverHTTPTests.Rig

  @Test("R6.2 a deviceID and subscriberKey sent twice: the relay records what it forwards")
  func duplicatedKeys() async throws {
    let tenant = try await Rig()
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)/")
    let body =
      String(sdkBody(device: "REAL", app: watchAppID, key: "alice").dropLast())
      + #","deviceID":"OTHER","subscriberKey":"mallory"}"#
    let (status, _, answer) = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android, body: body)
    #expect(status == 201, "\(answer)")
    for side in [tenant, relay] {
      #expect(await side.server.watchedDevice("REAL") == nil)
      let device = try #require(await side.server.watchedDevice("OTHER"))
      #expect(device.lastSent?.subscriberKey == "mallory")
      let finding = try #require(device.registrations.last?.findings.last)
      #expect(finding.code == .duplicateKey && finding.severity == .violation)
      #expect(finding.message.contains(#"subscriberKey twice ("alice", then "mallory")"#))
    }
    await relay.stop()
    await tenant.stop()
  }
}
