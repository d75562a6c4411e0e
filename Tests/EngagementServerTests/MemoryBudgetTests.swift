import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// Memory bounded in bytes, not only in counts (#21): an app sending 100 KB attributes cannot
/// make the server hold gigabytes.
@Suite("the server's memory budgets")
struct MemoryBudgetTests {
  static func payload(_ device: String, value: String) -> RegistrationPayload {
    var payload = RegistrationPayload()
    payload.deviceID = device
    payload.etAppId = "app"
    payload.platform = "iOS"
    payload.attributes = [.init(key: "Note", value: value)]
    return payload
  }

  @Test("12,000 devices with a 100 KB attribute: waiting bodies within the byte budget, values cut")
  func budgets() {
    let big = String(repeating: "x", count: 100 << 10)
    var core = EngagementServerCore(
      settings: ServerSettings(appID: "app", accessToken: "t", processingDelay: 60))
    for index in 0..<12_000 {
      _ = core.receive(.valid(Self.payload("D\(index)", value: big), body: []), now: Instant(0))
      #expect(core.waitingPayloadBytes <= core.settings.waitingBytesInMemory)
    }
    // Values are cut to 4 KB on receipt, so a body holds about 4 KB, not 100: the count limit
    // binds before the 64 MB, and the rest wait in the store only.
    #expect(core.waitingWithPayload == core.settings.waitingInMemory)
    #expect(core.waitingPayloadBytes < 12_000 * 5_000)
    let spilled = Set(core.dueWithoutPayload(now: Instant(60)))
    #expect(spilled.count == 12_000 - core.waitingWithPayload)
    _ = core.processDue(now: Instant(60)) { id in
      .success(Self.payload("D\(id - 1)", value: big))
    }
    #expect(core.waitingPayloadBytes == 0 && core.waitingWithPayload == 0)
    let kept = core.devices.values.compactMap { $0.attributes["Note"] }
    #expect(kept.count == 12_000)
    #expect(kept.allSatisfy { $0.utf8.count < ProcessingRules.keptValueBytes + 80 })
    #expect(kept.first?.contains("(102400 bytes; the first 4096 kept; ") == true)
  }
}
