import Foundation
import TestSupport
import Testing

@Suite("regscope --receive's options", .timeLimit(.minutes(1)))
struct ReceiveOptionsTests {
  @Test(
    "a LAN address needs the app's own token; receiver options need --receive; TLS files in pairs and named when bad",
    arguments: [
      (["--receive", "--listen", "0.0.0.0"], "give your app's own token with --config"),
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
      try builtProduct("regscope"), arguments + ["--state", state], timeLimit: 30)
    #expect(output.status != 0)
    #expect(output.stderr.contains(says), "\(output.stderr)")
    #expect(!output.timedOut)
  }
}
