import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

/// Attribute values are cut to 4 KB on receipt (memory by bytes, not by count), and two long
/// values that differ only past the cut still differ: a change is never judged a resend.
@Suite("attribute values cut on receipt")
struct KeptValuesTests {
  static func record(_ watch: inout DeviceWatch, _ value: String, at: Double) -> [Finding] {
    let body = sdkBody(device: "BIG", attributes: ["Notes": value])
    _ = watch.record(
      ReceivedRegistration(
        deviceID: "BIG", payload: try? WireDecoding.payload(from: Data(body.utf8)).get(),
        body: Array(body.utf8), facts: RequestFacts(userAgent: androidAgent), at: Instant(at),
        status: 201, retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    return watch.devices["BIG"]?.registrations.last?.findings ?? []
  }

  @Test("the watch keeps 4 KB of a 100 KB value; a change past the cut is still a change")
  func cutAndCompared() {
    var watch = DeviceWatch(makeToken: { "t" })
    let base = String(repeating: "a", count: 100_000)
    _ = Self.record(&watch, base + "1", at: 0)
    let kept = watch.devices["BIG"]?.lastSent?.attributes?.first?.value ?? ""
    #expect(kept.utf8.count < ProcessingRules.keptValueBytes + 80)
    // 120 s later, the value changed only at its end: a change, not the record resent.
    let changed = Self.record(&watch, base + "2", at: 120)
    #expect(!changed.contains { $0.code == .unchangedResent }, "\(changed)")
    // The same value again is the same record.
    let again = Self.record(&watch, base + "2", at: 240)
    #expect(again.contains { $0.code == .unchangedResent })
    #expect(ProcessingRules.kept(kept) == kept)
  }
}
