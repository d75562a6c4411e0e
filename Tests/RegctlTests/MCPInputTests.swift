import Foundation
import TestSupport
import Testing

/// `regctl mcp`'s input, line by line (#43): every request read is answered exactly once, by
/// the JSON-RPC 2.0 rules, and the server exits once its input has ended and all is answered.
/// Each run closes the input at once: a line left unanswered shows as a run that never ends.
@Suite("regctl mcp reads its input", .serialized, .timeLimit(.minutes(10)))
struct MCPInputTests {
  /// Runs `regctl mcp` on `input` to its end; its answers, one JSON object (or array) a line.
  static func answers(_ input: String) async throws -> [Any] {
    let run = try await runProcess(try regctlURL(), ["mcp"], input: input)
    #expect(!run.timedOut, "regctl mcp did not exit at the end of its input: \(run.stdout)")
    #expect(run.status == 0, "\(run.stderr)")
    return try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8))
    }
  }

  static func ping(_ id: String) -> String { #"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# }

  static func answer(_ answers: [Any], id: Int) -> [String: Any]? {
    answers.lazy.compactMap { $0 as? [String: Any] }.first { ($0["id"] as? Int) == id }
  }

  static func errors(_ answers: [Any], code: Int) -> [[String: Any]] {
    answers.compactMap { $0 as? [String: Any] }.filter {
      ($0["error"] as? [String: Any])?["code"] as? Int == code
    }
  }

  @Test("a line that is not JSON: a parse error with a null id, and the next request answered")
  func garbage() async throws {
    let answers = try await Self.answers("garbage\n" + Self.ping("7") + "\n")
    #expect(answers.count == 2, "\(answers)")
    let parse = Self.errors(answers, code: -32700)
    #expect(parse.count == 1 && parse.first?["id"] is NSNull, "\(answers)")
    #expect(Self.answer(answers, id: 7)?["result"] != nil, "\(answers)")
  }

  @Test("ids of true, 1.5, {}, [1], 20 digits and null, and method with result: each refused once")
  func oddIDs() async throws {
    let odd = ["true", "1.5", "{}", "[1]", "12345678901234567890", "null"]
    let lines =
      odd.map(Self.ping)
      + [#"{"jsonrpc":"2.0","id":5,"method":"ping","result":{}}"#, Self.ping("6")]
    let answers = try await Self.answers(lines.joined(separator: "\n") + "\n")
    #expect(answers.count == odd.count + 2, "\(answers)")
    let refused = Self.errors(answers, code: -32600)
    #expect(refused.count == odd.count + 1, "\(answers)")
    #expect(refused.filter { $0["id"] is NSNull }.count == odd.count, "\(answers)")
    // The id of the request with a result is a good id: the refusal carries it.
    #expect((Self.answer(answers, id: 5)?["error"] as? [String: Any])?["code"] as? Int == -32600)
    #expect(Self.answer(answers, id: 6)?["result"] != nil, "\(answers)")
  }

  @Test("a last request without its newline is answered; blank lines and answers are not")
  func lastLine() async throws {
    let answers = try await Self.answers(
      "\n  \n" + #"{"jsonrpc":"2.0","id":3,"result":{}}"# + "\n" + Self.ping("8"))
    #expect(answers.count == 1, "\(answers)")
    #expect(Self.answer(answers, id: 8)?["result"] != nil, "\(answers)")
  }

  @Test("a batch: one array, its refused items in it; an empty batch refused alone")
  func batches() async throws {
    let batch =
      "[" + Self.ping("1") + "," + Self.ping("true") + ",5,"
      + #"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "," + Self.ping("2") + "]"
    let answers = try await Self.answers(batch + "\n[]\n")
    #expect(answers.count == 2, "\(answers)")
    let items = try #require(answers.first as? [[String: Any]], "\(answers)")
    #expect(items.count == 4, "\(items)")
    #expect(Set(items.compactMap { $0["id"] as? Int }) == [1, 2])
    #expect(items.filter { $0["id"] is NSNull && $0["error"] != nil }.count == 2, "\(items)")
    let empty = try #require(answers.last as? [String: Any])
    #expect(empty["id"] is NSNull && (empty["error"] as? [String: Any])?["code"] as? Int == -32600)
  }

  @Test("a line over the limit: an error naming it, the line skipped, the next one answered")
  func longLines() async throws {
    // 8 MB read whole (a request with a long parameter, under the 8 MiB limit); 9 MB over it.
    let long =
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#
      + String(repeating: "a", count: 8_000_000) + #""}}"#
    let over = String(repeating: "b", count: 9 << 20)
    let clock = ContinuousClock()
    let started = clock.now
    let answers = try await Self.answers(long + "\n" + over + "\n" + Self.ping("2") + "\n")
    #expect(answers.count == 3, "\(answers.count) answers")
    #expect(Self.answer(answers, id: 1)?["result"] != nil)
    #expect(Self.answer(answers, id: 2)?["result"] != nil)
    let refused = Self.errors(answers, code: -32600)
    let message = (refused.first?["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(refused.count == 1 && refused.first?["id"] is NSNull)
    #expect(message.contains("8388608 bytes"), "\(message)")
    // The SDK's reader searched its whole buffer after every 4 KB read: 20 s for 4 MB, so
    // about 80 s for this 8 MB line alone. Linear reading takes under a second alone, a few
    // with two whole test runs at once; the bound only tells the two apart.
    #expect(clock.now - started < .seconds(30), "\(clock.now - started)")
  }
}
