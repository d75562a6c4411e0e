import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// The watch keeps devices by when they were last seen, in constant time a registration: the
/// newest listed first, the one seen longest ago dropped first.
@Suite("the watch's order of devices")
struct WatchOrderTests {
  static func record(_ watch: inout DeviceWatch, _ device: String, at: Double) throws {
    let text = sdkBody(device: device)
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(text.utf8))
    _ = watch.record(
      ReceivedRegistration(
        deviceID: device, payload: payload, body: Array(text.utf8), facts: RequestFacts(),
        at: Instant(at), status: 201, retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
  }

  @Test("seen again moves a device to the front; past the limit the one seen longest ago goes")
  func order() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 3)
    for (index, device) in ["A", "B", "C", "A"].enumerated() {
      try Self.record(&watch, device, at: Double(index))
    }
    #expect(watch.newest(10).map(\.deviceID) == ["A", "C", "B"])
    #expect(watch.newest(2).map(\.deviceID) == ["A", "C"])
    try Self.record(&watch, "D", at: 4)
    #expect(watch.newest(10).map(\.deviceID) == ["D", "A", "C"])
    #expect(watch.wasDropped("B") && !watch.wasDropped("A"))
    // A dropped device that comes back is kept again, and no longer counted as dropped.
    try Self.record(&watch, "B", at: 5)
    #expect(watch.newest(10).map(\.deviceID) == ["B", "D", "A"])
    #expect(!watch.wasDropped("B") && watch.wasDropped("C"))
  }

  @Test(
    "dropped devices are remembered up to a limit, oldest forgotten first, a returning one at once")
  func droppedRemembered() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 1, rememberedDrops: 3)
    for (index, device) in ["A", "B", "C", "D", "A", "E"].enumerated() {
      try Self.record(&watch, device, at: Double(index))
    }
    // Dropped in turn: A, B, C, D (A came back), A again; three remembered at most.
    #expect(!watch.wasDropped("E") && !watch.wasDropped("B"))
    #expect(watch.wasDropped("C") && watch.wasDropped("D") && watch.wasDropped("A"))
    // Thousands of returns after a drop cost no search, and forget nothing wrongly.
    for round in 0..<2_000 {
      try Self.record(&watch, round.isMultiple(of: 2) ? "C" : "D", at: Double(10 + round))
    }
    #expect(watch.wasDropped("C") && !watch.wasDropped("D"))
    #expect(watch.wasDropped("A") && watch.wasDropped("E"))
  }

  @Test("thousands of repeat visits keep the queue small and the order right")
  func repeats() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 10)
    for round in 0..<500 {
      for device in 0..<5 { try Self.record(&watch, "D\(device)", at: Double(round * 5 + device)) }
    }
    #expect(watch.newest(10).map(\.deviceID) == ["D4", "D3", "D2", "D1", "D0"])
    #expect(watch.devices.count == 5)
  }

  @Test("the devices dropped for the limit are handed to whoever takes them, a few at most")
  func evictedTaken() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 2)
    for (index, device) in ["A", "B", "A", "C", "D"].enumerated() {
      try Self.record(&watch, device, at: Double(index))
    }
    // B was seen longest ago when C came (A had come back), then A when D came.
    #expect(watch.takeEvicted().devices.map(\.deviceID) == ["B", "A"])
    #expect(watch.takeEvicted().devices.isEmpty)
    #expect(watch.newest(10).map(\.deviceID) == ["D", "C"])
    #expect(watch.wasDropped("A") && watch.wasDropped("B"))
    // Nobody taking them: past a few they are let go where they are dropped.
    for index in 0..<(3 * DeviceWatch.Evicted.held) {
      try Self.record(&watch, "F\(index)", at: Double(10 + index))
    }
    #expect(watch.takeEvicted().devices.count == DeviceWatch.Evicted.held)
  }

  @Test("the table keeps each device in a slot: freed slots reused, a copy of the watch its own")
  func table() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 2)
    try Self.record(&watch, "A", at: 0)
    try Self.record(&watch, "B", at: 1)
    let before = watch
    // C is stored before A is dropped (a third slot); A, dropped, then back, takes the slot
    // A left, and B's is free.
    try Self.record(&watch, "C", at: 2)
    try Self.record(&watch, "A", at: 3)
    #expect(watch.devices.count == 2)
    #expect(Set(watch.devices.values.map(\.deviceID)) == ["A", "C"])
    #expect(watch.devices["B"] == nil && watch.devices["A"]?.registrationCount == 1)
    #expect(watch.devices["A"]?.firstSeen == Instant(3))
    // The copy taken before is untouched by what the watch did since.
    #expect(Set(before.devices.values.map(\.deviceID)) == ["A", "B"])
    #expect(before.devices["A"]?.registrationCount == 1)
    #expect(before.newest(10).map(\.deviceID) == ["B", "A"])
    #expect(watch.devices.slotCount == 3)
  }

  @Test("a fleet past the table's reserve keeps the newest, each device found by its id")
  func fleet() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1), keptDevices: 1_500)
    for index in 0..<4_000 { try Self.record(&watch, "F\(index)", at: Double(index)) }
    #expect(watch.devices.count == 1_500)
    #expect(watch.newest(3).map(\.deviceID) == ["F3999", "F3998", "F3997"])
    #expect(watch.devices["F2500"]?.deviceID == "F2500" && watch.devices["F2499"] == nil)
    #expect(watch.wasDropped("F2499") && !watch.wasDropped("F2500"))
    #expect(watch.devices.values.count == 1_500)
    // The slots of dropped devices are taken again: the array does not grow with the fleet.
    #expect(watch.devices.slotCount <= 1_501)
  }
}
