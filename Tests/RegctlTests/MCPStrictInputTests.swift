import Foundation
import TestSupport
import Testing

/// `regctl mcp` against lines Foundation's decoder reads more kindly than JSON does (#52): a
/// number past a Double, a byte that is not UTF-8, a lone surrogate, a trailing comma, and a
/// batch that would be answered a million times. Each run closes the input at once: a line
/// left unanswered shows as a run that never ends (the watchdog's 30 s, a hang guard).
@Suite("regctl mcp reads JSON strictly", .serialized, .timeLimit(.minutes(10)))
struct MCPStrictInputTests {
  /// Runs `regctl mcp` on `input` to its end; its answers, one JSON value a line, and the
  /// bytes of standard output.
  static func answers(_ input: Data) async throws -> (answers: [Any], bytes: Int) {
    let run = try await runProcess(try regctlURL(), ["mcp"], bytes: input)
    #expect(!run.timedOut, "regctl mcp did not exit at the end of its input: \(run.stdout)")
    #expect(run.status == 0, "\(run.stderr)")
    let answers = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8))
    }
    return (answers, run.stdout.utf8.count)
  }

  static func line(_ text: String) -> Data { Data((text + "\n").utf8) }

  @Test(
    "1e400, a 0xFF byte, \\ud800 or \\udc00 in a request: a parse error with a null id, and mcp exits",
    arguments: [
      line(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}}"#),
      line(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":-1E+999}}"#),
      Data(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":""#.utf8) + Data([0xFF])
        + Data("\"}}\n".utf8),
      line(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}"#),
      line(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\udc00b"}}"#),
    ])
  func unreadableValues(_ request: Data) async throws {
    let (answers, _) = try await Self.answers(request + Self.line(MCPInputTests.ping("9")))
    #expect(answers.count == 2, "\(answers)")
    let parse = MCPInputTests.errors(answers, code: -32700)
    #expect(parse.count == 1, "\(answers)")
    #expect(parse.first?["id"] is NSNull, "\(answers)")
    #expect(MCPInputTests.answer(answers, id: 9)?["result"] != nil, "\(answers)")
  }

  @Test("a trailing comma is not JSON: a parse error, never a ping answered")
  func trailingCommas() async throws {
    let lines = [
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,]}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"ping",}"#,
      #"[{"jsonrpc":"2.0","id":3,"method":"ping"},]"#,
      #"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":01}}"#,
    ]
    let (answers, _) = try await Self.answers(Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(answers.count == lines.count, "\(answers)")
    let parse = MCPInputTests.errors(answers, code: -32700)
    #expect(parse.count == lines.count, "\(answers)")
    #expect(parse.allSatisfy { $0["id"] is NSNull }, "\(answers)")
    let message = (parse.first?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(message.contains("a comma before \"]\" at byte 53"), "\(message)")
  }

  @Test("what is JSON still reads: escapes, pairs, UTF-8, small and large numbers, a BOM")
  func validLines() async throws {
    let lines = [
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud83d\ude00 \u00e9 é😀 \n\/"}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":[1e-400,-0.5E+3,0,-0,1e308]}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":[true,false,null,{},[]]}}"#,
      "\u{FEFF}" + MCPInputTests.ping("4"),
    ]
    let (answers, _) = try await Self.answers(Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(answers.count == 4, "\(answers)")
    for id in 1...4 { #expect(MCPInputTests.answer(answers, id: id)?["result"] != nil) }
  }

  @Test("an 8 MiB batch of 1s: one Invalid Request naming the bound, not a refusal for each")
  func batchOfOnes() async throws {
    // 4,194,303 elements, the line just under the 8 MiB limit: each was refused in a
    // 570 MB answer line.
    var bytes = [UInt8](repeating: UInt8(ascii: "1"), count: 8 << 20)
    bytes[0] = UInt8(ascii: "[")
    for index in stride(from: 2, to: bytes.count - 2, by: 2) { bytes[index] = UInt8(ascii: ",") }
    bytes[bytes.count - 2] = UInt8(ascii: "]")
    bytes[bytes.count - 1] = UInt8(ascii: "\n")
    let line = Data(bytes)
    let (answers, answered) = try await Self.answers(line + Self.line(MCPInputTests.ping("5")))
    #expect(answers.count == 2, "\(answers.count) answers")
    #expect(answered < 1024, "\(answered) bytes answered")
    let refused = MCPInputTests.errors(answers, code: -32600)
    let message = (refused.first?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(refused.count == 1 && refused.first?["id"] is NSNull, "\(answers)")
    #expect(message.contains("at most 100 messages; this one holds 4194303"), "\(message)")
    #expect(MCPInputTests.answer(answers, id: 5)?["result"] != nil)
  }

  @Test("a batch of 100 is answered item by item; 101 is one error")
  func batchBound() async throws {
    func batch(_ count: Int) -> String {
      "[" + (1...count).map { MCPInputTests.ping("\($0)") }.joined(separator: ",") + "]"
    }
    let (answers, _) = try await Self.answers(Self.line(batch(100)) + Self.line(batch(101)))
    #expect(answers.count == 2, "\(answers.count) answers")
    let items = try #require(answers.first as? [[String: Any]])
    #expect(Set(items.compactMap { $0["id"] as? Int }) == Set(1...100))
    let refused = try #require(answers.last as? [String: Any])
    #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32600)
    #expect(refused["id"] is NSNull)
  }
}
