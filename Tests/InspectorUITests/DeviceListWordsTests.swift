import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import InspectorUI

/// The device list's word for a device: never "ok" while its newest send was not taken (a
/// new user's walk saw a tenant's 401, relayed, listed as "ok").
@Suite("the device list's word")
struct DeviceListWordsTests {
  static func device(statuses: [(Int?, Bool)]) throws -> DeviceWatch.Device {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    let body = sdkBody(device: "PIXEL-W", key: "user-1", attributes: ["FirstName": "Ada"])
    for (index, (status, local)) in statuses.enumerated() {
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "PIXEL-W",
          payload: try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8)),
          body: Array(body.utf8), facts: RequestFacts(userAgent: androidAgent),
          at: Instant(Double(index) * 3600), status: status, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false }),
          local: local))
    }
    return try #require(watch.devices["PIXEL-W"])
  }

  @Test("the newest send refused by the tenant, answered by the relay, or unanswered: said")
  func newestNotTaken() throws {
    #expect(ReceiverPanes.findingsSummary(try Self.device(statuses: [(201, false)])).0 == "ok")
    #expect(
      ReceiverPanes.findingsSummary(try Self.device(statuses: [(201, false), (401, false)])).0
        == "last 401")
    #expect(
      ReceiverPanes.findingsSummary(try Self.device(statuses: [(502, true)])).0
        == "last 502 (relay)")
    // A later 2xx: taken again, ok.
    #expect(
      ReceiverPanes.findingsSummary(try Self.device(statuses: [(503, false), (201, false)])).0
        == "ok")
  }
}
