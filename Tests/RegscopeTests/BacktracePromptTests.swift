import Foundation
import TestSupport
import Testing

/// A crash must never leave the user's terminal in the Swift runtime's interactive backtrace
/// prompt: regscope starts itself again with SWIFT_BACKTRACE=interactive=no when it is unset.
@Suite("regscope and the runtime's backtrace prompt", .timeLimit(.minutes(10)))
struct BacktracePromptTests {
  @Test("the running inspector has SWIFT_BACKTRACE=interactive=no in its environment")
  func noPrompt() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    defer { tmux.killServer() }
    let state = try await tmux.startRegscope(environment: "SWIFT_BACKTRACE=")
    #expect(await tmux.waitFor("the first frame") { $0.contains("1 Contact record") })
    let found = try await runTool("pgrep", ["-f", "^\\S*regscope --state \(state)"])
    let pid = try #require(found.stdout.split(separator: "\n").first.map(String.init))
    let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(
      variables.contains("SWIFT_BACKTRACE=interactive=no"),
      "\(variables.filter { $0.hasPrefix("SWIFT") })")
  }
}
