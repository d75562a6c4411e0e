import Foundation
import TestSupport
import Testing

/// #52, item 1: a tenant (or anything at its address) answering a status line below 100
/// trapped AsyncHTTPClient's state machine (exit 132): `regctl tenant check` died, and so did
/// a running `regctl serve --tenant --upstream` on its first read-back. Every call to the
/// tenant now goes through the relay's client, which refuses such an answer and says so.
@Suite("a tenant answering an odd status line", .timeLimit(.minutes(10)))
struct TenantOddStatusTests {
  /// A --tenant file whose auth and REST base are `port` on loopback.
  static func file(port: Int) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("odd-tenant-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("tenant.json").path
    let text = """
      {"client_id": "odd-client", "client_secret": "odd-secret-0123456789abcdef",
       "auth_base_uri": "http://127.0.0.1:\(port)/", "rest_base_uri": "http://127.0.0.1:\(port)/"}
      """
    FileManager.default.createFile(
      atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    return path
  }

  @Test(
    "tenant check: status 099, 000 and 1xx are said as no HTTP answer, exit 2, no trap",
    arguments: ["099 Odd", "000 Nothing", "100 Continue"])
  func tenantCheck(_ statusLine: String) async throws {
    let odd = try CaptureServer { _ in .answer(statusLine) }
    defer { odd.stop() }
    let output = try await runProcess(
      try regctlURL(), ["tenant", "check", "--tenant", try Self.file(port: odd.port)])
    #expect(output.status == 2, "\(output.status): \(output.stderr)")
    #expect(output.stderr.contains("not an HTTP answer RegScope can take"), "\(output.stderr)")
    #expect(!output.stderr.contains("odd-secret"), "the secret is never said")
  }

  @Test(
    "serve --tenant --upstream: status 099 on the read-back is said on the device; serve lives on"
  )
  func serveLivesOn() async throws {
    let tenant = try StandInTenant(.searchStatusLine("099 Odd"))
    defer { tenant.stop() }
    let serve = try await ServeProcess.start([
      "--tenant", try tenant.file(), "--upstream", "http://127.0.0.1:\(tenant.port)",
      "--read-back-after", "1",
    ])
    let first = try await rawExchange(
      port: serve.port,
      ReadBackBinaryTests.registration(device: "PIXEL-ODD", attributes: ["FirstName": "Ada"]))
    #expect(first.hasPrefix("HTTP/1.1 201"), "\(first)")
    let said = try await serve.process.readLine { $0.contains("PIXEL-ODD: tenant read-back") } ?? ""
    #expect(said.contains("no answer: the tenant could not answer"), "\(said)")
    #expect(said.contains("not an HTTP answer RegScope can take"), "\(said)")
    let second = try await rawExchange(
      port: serve.port,
      ReadBackBinaryTests.registration(device: "PIXEL-NEXT", attributes: ["FirstName": "Bo"]))
    #expect(second.hasPrefix("HTTP/1.1 201"), "serve still answers: \(second)")
    try await serve.stop()
  }
}
