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
    .timeLimit(.minutes(10)))
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

  /// A capture whose next write fails: its file moved aside and a directory put in its place
  /// (root ignores a file's permissions, so a read-only file would not do).
  struct Failing {
    let path: String
    let file: HARFile
    var written: AsyncStream<Int>.Iterator
    var failures: AsyncStream<String>.Iterator

    init(_ name: String, heldBytes: Int = HARFile.heldBytes) throws {
      path =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(UUID().uuidString).har").path
      let (writes, wrote) = AsyncStream.makeStream(of: Int.self)
      let (failures, failed) = AsyncStream.makeStream(of: String.self)
      // Every record is written at once; the timed write would come in an hour.
      file = try HARFile(
        path: path, written: { wrote.yield($0) }, failed: { failed.yield($0) },
        flushDelay: .seconds(3_600), eagerBytes: 1, heldBytes: heldBytes)
      written = writes.makeAsyncIterator()
      self.failures = failures.makeAsyncIterator()
    }

    func breakPath() throws {
      try FileManager.default.moveItem(atPath: path, toPath: path + ".aside")
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func mendPath() throws {
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.moveItem(atPath: path + ".aside", toPath: path)
    }

    func remove() {
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: path + ".aside")
    }
  }

  @Test(
    "a write that fails keeps its entries for the next, in order, and the file reads whole",
    .timeLimit(.minutes(10)))
  func failedWriteKeepsEntries() async throws {
    var capture = try Failing("failed")
    defer { capture.remove() }
    capture.file.record(Self.exchange(0))
    #expect(await capture.written.next() == 1)
    try capture.breakPath()
    capture.file.record(Self.exchange(1))
    let said = await capture.failures.next()
    #expect(said?.contains("cannot be written") == true)
    #expect(capture.file.problem != nil)
    try capture.mendPath()
    capture.file.record(Self.exchange(2))
    capture.file.close()
    #expect(capture.file.problem == nil)
    #expect(capture.file.lost == 0 && capture.file.counts.kept == 3)
    let read = try HARReader.judge([capture.path])
    #expect(read.devices.map(\.deviceID).sorted() == ["D0", "D1", "D2"])
    let text = try String(contentsOfFile: capture.path, encoding: .utf8)
    let order = ["D0", "D1", "D2"].compactMap { text.range(of: "\\\"\($0)\\\"")?.lowerBound }
    #expect(order.count == 3 && order == order.sorted(), "entries out of order")
  }

  @Test(
    "past what may wait after a failed write, entries are counted lost; the file stays valid",
    .timeLimit(.minutes(10)))
  func failedWriteBeyondHold() async throws {
    var capture = try Failing("lost", heldBytes: 1)
    defer { capture.remove() }
    capture.file.record(Self.exchange(0))
    #expect(await capture.written.next() == 1)
    try capture.breakPath()
    capture.file.record(Self.exchange(1))
    _ = await capture.failures.next()
    try capture.mendPath()
    capture.file.close()
    #expect(capture.file.lost == 1 && capture.file.counts.kept == 1)
    #expect(try HARReader.judge([capture.path]).devices.map(\.deviceID) == ["D0"])
  }

  @Test(
    "the file's first entry failing to be written is written later, and the file reads whole",
    .timeLimit(.minutes(10)))
  func firstWriteFails() async throws {
    var capture = try Failing("first")
    defer { capture.remove() }
    try capture.breakPath()
    capture.file.record(Self.exchange(0))
    _ = await capture.failures.next()
    try capture.mendPath()
    capture.file.close()
    #expect(capture.file.lost == 0 && capture.file.counts.kept == 1)
    #expect(try HARReader.judge([capture.path]).devices.map(\.deviceID) == ["D0"])
  }

  @Test(
    "while writes fail, what waits stays within its bound; a close whose write fails counts the rest lost",
    .timeLimit(.minutes(10)))
  func heldWhileFailing() async throws {
    var capture = try Failing("held", heldBytes: 3 * Self.entrySize)
    defer { capture.remove() }
    try capture.breakPath()
    capture.file.record(Self.exchange(0))
    _ = await capture.failures.next()
    // Writes fail now: the failed entry and two more wait, the rest are lost as they come.
    for index in 1..<6 { capture.file.record(Self.exchange(index)) }
    #expect(capture.file.counts.kept == 3 && capture.file.lost == 3)
    capture.file.close()
    // The close's write failed too: each exchange lost once, none counted as kept.
    #expect(capture.file.lost == 6 && capture.file.counts.kept == 0)
  }

  /// Bytes an entry of `exchange(_:)` takes in the file, with its separator.
  static var entrySize: Int { HARDocument.entryBytes(exchange(0)).count + 2 }
}
