import Foundation
import TestSupport
import Testing

@Suite("regscope's start", .timeLimit(.minutes(10)))
struct StartupTests {
  @Test("a terminal that cannot start is named, and the device is not launched behind it")
  func unknownTerminalLaunchesNothing() async throws {
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-term-\(UUID().uuidString)").path
    let output = try await runProcess(
      try builtProduct("regscope"), ["--state", state],
      environment: ["TERM": "no-such-terminal\u{1B}[2J"])
    #expect(output.status == 2)
    #expect(output.stderr.contains("is not a terminal type"), "\(output.stderr)")
    #expect(!output.stderr.contains("\u{1B}"), "the TERM value reaches the terminal raw")
    let stored = try await runProcess(try builtProduct("regctl"), ["state", "--state", state])
    #expect(stored.stderr.contains("holds no launch yet"), "\(stored.stdout)\(stored.stderr)")
  }
}
