import Foundation
import TestSupport
import Testing

@Suite("R1.4 durability under kill -9", .timeLimit(.minutes(10)))
struct CrashTests {
  /// The soak of the README (`swift run crash-probe soak --rounds 1000`), short: 24 rounds.
  @Test("every acknowledged edit survives SIGKILL at random moments and is delivered later")
  func killNineRounds() async throws {
    let output = try await runProcess(
      builtProduct("crash-probe"), ["soak", "--rounds", "24"])
    let text = output.stdout
    #expect(output.status == 0, "\(text)\n\(output.stderr)")
    let summary = try #require(
      text.split(separator: "\n").last { $0.contains("rounds of kill -9") })
    #expect(summary.contains("24 rounds"))
    #expect(summary.contains(" 0 lost, 0 not delivered"))
    // Enough acknowledged for the rounds to mean anything.
    let acknowledged = summary.split(separator: " ").firstIndex { $0 == "edits" }.flatMap {
      Int(summary.split(separator: " ")[$0 - 1])
    }
    #expect((acknowledged ?? 0) > 100, "\(summary)")
  }
}
