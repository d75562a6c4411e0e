import Foundation
import Scenarios
import TestSupport
import Testing

/// Every built-in demo, played in the real regscope as a marketer would see it, four at once
/// so the machine is busy: each ends with every check passed, no cross and no raw number.
@Suite("built-in demos in a real terminal (tmux)", .serialized, .timeLimit(.minutes(10)))
struct DemoScreenTests {
  @Test("every built-in demo plays to its end with every check passed, several at once")
  func everyDemo() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let names = BuiltInScenarios.all.map(\.name)
    for batch in stride(from: 0, to: names.count, by: 4).map({
      Array(names[$0..<min($0 + 4, names.count)])
    }) {
      let terminals = batch.map { _ in Tmux() }
      defer { for tmux in terminals { tmux.killServer() } }
      for (tmux, name) in zip(terminals, batch) {
        _ = try await tmux.startRegscope(
          arguments: "--scenario \(name) --speed 1000000 --caption-seconds 0.05")
      }
      for (tmux, name) in zip(terminals, batch) {
        #expect(
          await tmux.waitFor("\(name) to finish") { $0.contains("demo \(name) finished") },
          "\(name)")
        let screen = await tmux.capture()
        #expect(screen.contains("finished: all"), "\(name):\n\(screen)")
        let caption = screen.split(separator: "\n").drop { !$0.contains("Demo \(name)") }
        #expect(caption.first?.contains(" 0 ✗") == true, "\(name):\n\(screen)")
        #expect(
          !caption.dropFirst().contains { $0.contains("✗") },
          "\(name) shows a failed check:\n\(screen)")
        #expect(caption.contains { $0.contains("Shown:") || $0.contains(".") }, "\(name)")
        #expect(
          caption.allSatisfy { $0.firstMatch(of: /\d{5,}/) == nil },
          "\(name) shows a raw number:\n\(caption.joined(separator: "\n"))")
      }
    }
  }

  @Test("a demo's checks say in words what they prove; x shows the expressions; at 80x24 too")
  func checksInWords() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    defer { tmux.killServer() }
    _ = try await tmux.startRegscope(arguments: "--scenario initial-registration --step")
    try await tmux.run(["resize-window", "-t", tmux.session, "-x", "80", "-y", "24"])
    #expect(
      await tmux.waitFor("the first caption, held") {
        $0.contains("registers the phone at once") && $0.contains("Space: next")
      })
    // A Space counts for the caption being held: each waits for its step to be on screen.
    for step in 2...3 {
      try await tmux.keys("Space")
      #expect(
        await tmux.waitFor("step \(step), held") {
          $0.contains("step \(step)/4") && $0.contains("Space: next")
        })
    }
    #expect(
      await tmux.waitFor("the third step's check in words, with the caption before") { screen in
        screen.contains("✓ processing accepted no registrations")
          && screen.contains("At 0:00:00: The server answers 201")
          && screen.contains("Almost five minutes on")
      })
    try await tmux.keys("x")
    #expect(
      await tmux.waitFor("the expression") { screen in
        screen.contains("✓ server.processed == 0")
          && !screen.contains("processing accepted no registrations")
      })
    // The header's clock is a clock: whole seconds.
    let header = await tmux.capture().split(separator: "\n").first ?? ""
    #expect(header.contains(" 0:04:59 "), "\(header)")
  }

  @Test("a caption stays on screen with the one before it; the next step does not overwrite it")
  func captionsKept() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    defer { tmux.killServer() }
    _ = try await tmux.startRegscope(arguments: "--scenario orphan-shared-device --step")
    #expect(
      await tmux.waitFor("the first caption, held") {
        $0.contains("User A logs in on a phone") && $0.contains("Space: next")
      })
    try await tmux.keys("Space")
    #expect(
      await tmux.waitFor("the key sentence with the one before") { screen in
        screen.contains("User A logged out and User B logged in")
          && screen.contains("User A logs in on a phone")
      })
  }
}
