import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// A capture's registration bodies are read as the receiver reads them, and as the tenant
/// did: a key twice is its last value, and a violation.
@Suite("a capture's bodies read as the tenant read them")
struct CaptureBodyReadingTests {
  @Test("R6.2 a deviceID and subscriberKey sent twice: judged as the last values, one violation")
  func duplicatedKeys() throws {
    let body =
      String(sdkBody(device: "REAL", key: "alice").dropLast())
      + #","deviceID":"OTHER","subscriberKey":"mallory"}"#
    let judge = try judged(har([entry("2026-11-22T10:00:00.000Z", body: body)]))
    #expect(judge.devices.map(\.deviceID) == ["OTHER"])
    let device = try #require(judge.devices.first)
    #expect(device.lastSent?.subscriberKey == "mallory")
    #expect(device.findingCounts == [.duplicateKey: 1])
    #expect(judge.worstSeverity == .violation)
  }
}
