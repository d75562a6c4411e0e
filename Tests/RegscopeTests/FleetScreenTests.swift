import Foundation
import TestSupport
import Testing

/// `regscope --fleet` in a real terminal: the Fleet view from the start, and a fleet still
/// computing that quitting does not wait for.
@Suite("the Fleet view in a real terminal (tmux)", .serialized, .timeLimit(.minutes(10)))
struct FleetScreenTests {
  @Test("--fleet opens on the Fleet view once the fleet is computed; q quits cleanly")
  func opensOnFleet() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--fleet --fleet-devices 300")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the Fleet view") { $0.contains("At the end of the run (300 devices)") })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test("q while a million-device fleet computes quits at once: the fleet is cancelled")
  func quitsWhileComputing() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--fleet --fleet-devices 1000000")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the fleet computing") { $0.contains("through the three strategies") })
    try await tmux.keys("q")
    // Minutes of work were left: waitFor's 20 s pass only if quitting cancelled it.
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }
}
