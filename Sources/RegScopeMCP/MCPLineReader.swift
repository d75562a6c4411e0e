import Foundation
import SystemCalls

/// Cuts `regctl mcp`'s input into lines as it arrives, each byte looked at once: the SDK's
/// stdio transport searched its whole buffer again after every 4 KB read, so a 4 MB line took
/// 20 s. A line longer than `limit` is not kept: it is said once (`tooLong`) and its bytes are
/// dropped up to the next newline, so memory stays under `limit` whatever comes in.
struct MCPLineReader {
  enum Event: Sendable, Equatable {
    case line(Data)
    case tooLong
  }

  let limit: Int
  private var line: [UInt8] = []
  private var skipping = false

  init(limit: Int) { self.limit = limit }

  /// The lines `bytes` ends; the rest of a line waits for the next bytes.
  mutating func take(_ bytes: UnsafeRawBufferPointer) -> [Event] {
    var events: [Event] = []
    var start = 0
    while start < bytes.count {
      let newline = SystemCalls.firstIndex(
        of: 0x0A, in: UnsafeRawBufferPointer(rebasing: bytes[start...])
      ).map { start + $0 }
      let stop = newline ?? bytes.count
      if !skipping {
        if line.count + (stop - start) > limit {
          events.append(.tooLong)
          line = []
          skipping = true
        } else {
          line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<stop]))
        }
      }
      guard let newline else { break }
      if !skipping, !line.isEmpty { events.append(.line(Data(line))) }
      // A long line's buffer is let go; a short one's is kept for the next.
      line.removeAll(keepingCapacity: line.capacity <= 1 << 16)
      skipping = false
      start = newline + 1
    }
    return events
  }

  /// At the end of input: a last line without its newline is still a line.
  mutating func finish() -> [Event] {
    defer {
      line = []
      skipping = false
    }
    return skipping || line.isEmpty ? [] : [.line(Data(line))]
  }
}
