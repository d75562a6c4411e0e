import Foundation
import TestSupport
import Testing

/// `regscope --receive --tenant`: the tenant's demographics in the header, `D` reads them
/// again, and the options' refusals, through the real binary and the stand-in tenant.
@Suite("regscope --receive --tenant", .serialized, .timeLimit(.minutes(10)))
struct TenantReceiveTests {
  @Test("the set in the header; D reads it again and says what changed; the secret never shown")
  func refreshKey() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let port = try #require(freeLoopbackPort())
    let tmux = Tmux()
    defer { tmux.killServer() }
    _ = try await tmux.startRegscope(
      arguments: "--receive --port \(port) --tenant \(try tenant.file())")
    #expect(
      await tmux.waitFor("the tenant's set in the header") {
        $0.contains("the tenant's MobilePush Demographics (5)")
      })
    tenant.define(StandInTenant.demographics + ["Plan"])
    try await tmux.keys("D")
    #expect(
      await tmux.waitFor("the refresh said") {
        $0.contains("demographics refreshed from the tenant's MobilePush Demographics (asked)")
          && $0.contains("added Plan")
      })
    #expect(!(await tmux.capture()).contains(StandInTenant.secret))
  }

  @Test(
    "--tenant needs --receive; not with --defined-attributes; a refused secret stops the start",
    arguments: [
      (["--tenant", "TENANT"], "--tenant goes with --receive"),
      (
        ["--receive", "--port", "0", "--tenant", "TENANT", "--defined-attributes", "A"],
        "give --tenant or --defined-attributes, not both"
      ),
      (["--receive", "--port", "0", "--tenant", "REFUSING"], "the tenant refused the client id"),
    ])
  func refused(arguments: [String], says: String) async throws {
    let tenant = try StandInTenant()
    let refusing = try StandInTenant(.refuseSecret)
    defer {
      tenant.stop()
      refusing.stop()
    }
    let (good, bad) = (try tenant.file(), try refusing.file())
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-tenant-\(UUID().uuidString)").path
    let output = try await runProcess(
      try builtProduct("regscope"),
      arguments.map { $0 == "TENANT" ? good : $0 == "REFUSING" ? bad : $0 } + ["--state", state])
    #expect(output.status != 0)
    #expect(output.stderr.contains(says), "\(output.stderr)")
    #expect(!output.stderr.contains(StandInTenant.secret))
  }
}
