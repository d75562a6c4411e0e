import Foundation
import TestSupport
import Testing

@Suite("regscope --receive's options", .timeLimit(.minutes(10)))
struct ReceiveOptionsTests {
  @Test(
    "a LAN address needs the app's own token; receiver options need --receive; TLS files in pairs and named when bad",
    arguments: [
      (["--receive", "--listen", "0.0.0.0"], "the demo app's token (from the demo app) is public"),
      (["--app-id", "x"], "go with --receive"),
      (["--receive", "--access-token", "abc"], "a token goes with the app's id: add --app-id ID"),
      (["--receive", "--app-id", "x", "--any-app"], "or --any-app, not both"),
      (["--receive", "--processing-delay", "soon"], "--processing-delay"),
      (["--listen", "10.0.0.5"], "go with --receive"),
      (["--upstream", "https://example.com"], "go with --receive"),
      (
        ["--receive", "--tls-cert", "/nonexistent/cert.pem"],
        "give --tls-cert and --tls-key together"
      ),
      (["--receive", "--port", "70000"], "--port must be 0 to 65535"),
      (
        [
          "--receive", "--port", "0", "--tls-cert", "/nonexistent/c.pem", "--tls-key",
          "/nonexistent/k.pem",
        ],
        "--tls-cert /nonexistent/c.pem: no such file"
      ),
    ])
  func refused(arguments: [String], says: String) async throws {
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-receive-\(UUID().uuidString)").path
    let output = try await runProcess(
      try builtProduct("regscope"), arguments + ["--state", state])
    #expect(output.status != 0)
    #expect(output.stderr.contains(says), "\(output.stderr)")
    #expect(!output.timedOut)
  }

  @Test("--receive with the app's own id and token (from a file): its registration is accepted")
  func ownApp() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let port = try #require(freeLoopbackPort())
    let tokenFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("token-\(UUID().uuidString)").path
    try "my-apps-own-token-0123456\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: tokenFile) }
    let tmux = Tmux()
    defer { tmux.killServer() }
    _ = try await tmux.startRegscope(
      arguments:
        "--receive --port \(port) --app-id 11111111-2222-3333-4444-555555555555 --access-token-file \(tokenFile)"
    )
    #expect(
      await tmux.waitFor("the receiver on the app's own id") {
        $0.contains("app 11111111-2222-3333-4444-555555555555") && !$0.contains("my-apps-own-token")
      })
    let body = sdkBody(device: "OWN-1", app: "11111111-2222-3333-4444-555555555555")
    for (token, expected) in [
      ("demo-access-token-012345", "401"), ("my-apps-own-token-0123456", "201"),
    ] {
      let posted = try await runTool(
        "curl",
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
          "http://127.0.0.1:\(port)/device/v1/registration", "-H", "user-agent: \(androidAgent)",
          "-H", "authorization: Bearer \(token)", "-d", body,
        ])
      #expect(posted.stdout == expected, "\(token)")
    }
    #expect(
      await tmux.waitFor("the device, accepted after the refusal") {
        $0.contains("OWN-1") && $0.contains("refused 1x earlier; accepted since")
      })
  }
}
