import Foundation
import Testing

@testable import RegScopeMCP

/// `regctl mcp`'s line reader on input cut at every awkward place: lines are whole whatever
/// the reads, a line over the limit is said once and skipped to its newline.
@Suite("MCPLineReader")
struct MCPLineReaderTests {
  static func read(_ chunks: [String], limit: Int = 4) -> [MCPLineReader.Event] {
    var reader = MCPLineReader(limit: limit)
    var events: [MCPLineReader.Event] = []
    for chunk in chunks {
      events += Array(chunk.utf8).withUnsafeBytes { reader.take($0) }
    }
    return events + reader.finish()
  }

  static func line(_ text: String) -> MCPLineReader.Event { .line(Data(text.utf8)) }

  @Test("lines across reads, empty lines dropped, the last without its newline kept")
  func lines() {
    #expect(
      Self.read(["ab", "c\n\nde", "f\n", "g"]) == [
        Self.line("abc"), Self.line("def"), Self.line("g"),
      ])
    #expect(Self.read(["\n", "", "\n"]).isEmpty)
  }

  @Test("the limit: a line of it read, a longer one said once and skipped to its newline")
  func limit() {
    #expect(Self.read(["1234\n"]) == [Self.line("1234")])
    #expect(Self.read(["12345\nok\n"]) == [.tooLong, Self.line("ok")])
    #expect(Self.read(["123", "45", "678", "9\nok"]) == [.tooLong, Self.line("ok")])
    #expect(Self.read(["123", "45678"]) == [.tooLong])
    #expect(Self.read(["12345\n", "12345\n"]) == [.tooLong, .tooLong])
  }
}
