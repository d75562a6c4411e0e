import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// `--har` appends each exchange over the document's tail: the file is valid JSON after every
/// write, a write costs what its new exchanges cost, and the file stays within its budget.
@Suite("a capture written by appending, within a budget")
struct HARFileTests {
  static func exchange(_ index: Int) -> CapturedExchange {
    var exchange = CapturedExchange(
      startedAt: Instant(Double(index)), method: "POST",
      url: "http://127.0.0.1/device/v1/registration",
      requestHeaders: [HeaderField("User-Agent", androidAgent)], status: 201)
    exchange.requestBody = Array(sdkBody(device: "D\(index)").utf8)
    return exchange
  }

  @Test("two batches appended: valid HAR with every entry; the second write adds only its own")
  func appends() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("append-\(UUID().uuidString).har").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try HARFile(path: path)
    for index in 0..<3 { file.record(Self.exchange(index)) }
    file.close()
    let first = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try HARReader.judge([path]).devices.count == 3)
    // A new writer of the same path starts the capture afresh; appending costs the entry only.
    let again = try HARFile(path: path)
    again.record(Self.exchange(9))
    again.close()
    let second = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(second.count < first.count)
    #expect(try HARReader.judge([path]).devices.map(\.deviceID) == ["D9"])
  }

  @Test(
    "once enough waits it is written at once, not a second later, and reads as HAR",
    .timeLimit(.minutes(1)))
  func eager() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("eager-\(UUID().uuidString).har").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (writes, wrote) = AsyncStream.makeStream(of: Int.self)
    // The timed write would come in an hour: only the eager one can come within the test.
    let file = try HARFile(
      path: path, written: { wrote.yield($0) }, flushDelay: .seconds(3_600), eagerBytes: 1)
    var written = writes.makeAsyncIterator()
    for index in 0..<2 {
      file.record(Self.exchange(index))
      #expect(await written.next() == index + 1)
      // Valid HAR while the capture is still open, holding every entry written.
      #expect(try HARReader.judge([path]).devices.count == index + 1)
    }
    file.close()
    #expect(try HARReader.judge([path]).devices.count == 2)
  }

  @Test("past its byte budget exchanges are counted, not kept, and the file stays valid")
  func budget() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("budget-\(UUID().uuidString).har").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try HARFile(path: path, budget: 8_000)
    for index in 0..<20 { file.record(Self.exchange(index)) }
    file.close()
    let (kept, beyond) = file.counts
    #expect(kept > 0 && beyond > 0 && kept + beyond == 20)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(size <= 8_000)
    #expect(try HARReader.judge([path]).devices.count == kept)
  }
}
