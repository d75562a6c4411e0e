import Foundation
import Synchronization
import TestSupport
import Testing

/// What `regctl serve` says as a real app talks to it: the demo app it accepts, each refusal
/// naming its device, each violation and warning with its fix, and never a flood.
@Suite("regctl serve's output, as its user reads it", .serialized, .timeLimit(.minutes(10)))
struct ServeOutputTests {
  static let demoAppID = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
  static let demoToken = "demo-access-token-012345"

  static func post(_ serve: ServeProcess, token: String, device: String, attributes: String)
    async throws -> String
  {
    let body =
      #"{"app_Version":"1.0","attributes":[\#(attributes)],"dST":false,"deviceID":"\#(device)","etAppId":"\#(demoAppID)","hwid":"Google Pixel 8","locale":"en_US","platform":"Android","platform_Version":"14","push_Enabled":true,"sdk_Version":"10.0.0","tags":["ALL"],"timeZone":"0"}"#
    return try await serve.request(
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        + "user-agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0\r\n"
        + "authorization: Bearer \(token)\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)"
    )
  }

  @Test("started with no app, it prints the demo app's id and token, which docs/watch.md gives")
  func demoApp() async throws {
    let serve = try await ServeProcess.start(app: [])
    let line = try await serve.process.readLine { $0.hasPrefix("app ") } ?? ""
    try await serve.stop()
    let id = try #require(line.firstMatch(of: #/^app ([0-9a-f-]{36}) with token (\S+) /#))
    #expect(String(id.1) == Self.demoAppID && String(id.2) == Self.demoToken)
    let guide = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/watch.md"), encoding: .utf8)
    #expect(guide.contains("The first five minutes"))
    #expect(guide.contains(String(id.1)) && guide.contains(String(id.2)))
    #expect(guide.contains("10.0.2.2:8080") && guide.contains("marketing_cloud_server_url"))
  }

  @Test("the demo token on a LAN address is refused before anything listens")
  func demoBeyondLoopback() async throws {
    let result = try await runProcess(
      try regctlURL(), ["serve", "--listen", "0.0.0.0", "--port", "0"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("the demo app's token (from the demo app) is public"))
  }

  @Test(
    "the demo token given in the environment or a config.xml is refused off loopback too, by serve and qa",
    arguments: ["serve", "qa"])
  func demoTokenAnyWay(command: String) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-lan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("config.xml").path
    try """
    <?xml version='1.0' encoding='utf-8'?>
    <widget id="com.example.cordova">
      <preference name="com.salesforce.marketingcloud.app_id" value="\(Self.demoAppID)" />
      <preference name="com.salesforce.marketingcloud.access_token" value="\(Self.demoToken)" />
      <preference name="com.salesforce.marketingcloud.tenant_specific_endpoint" value="https://mc.example.com/" />
    </widget>
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let plan = command == "qa" ? ["first-registration", "--yes"] : []
    let state = command == "qa" ? [] : ["--db", folder.appendingPathComponent("s.db").path]
    let fromEnvironment = try await runProcess(
      try regctlURL(),
      [command] + plan + ["--listen", "0.0.0.0", "--port", "0", "--app-id", Self.demoAppID] + state,
      environment: ["REGSCOPE_ACCESS_TOKEN": Self.demoToken])
    #expect(fromEnvironment.status != 0 && !fromEnvironment.timedOut)
    #expect(
      fromEnvironment.stderr.contains("the demo app's token (from the token given) is public"),
      "\(fromEnvironment.stderr)")
    let fromConfig = try await runProcess(
      try regctlURL(),
      [command] + plan + ["--listen", "10.1.2.3", "--port", "0", "--config", config] + state,
      unset: ["REGSCOPE_ACCESS_TOKEN"])
    #expect(fromConfig.status != 0 && !fromConfig.timedOut)
    #expect(fromConfig.stderr.contains("is public"), "\(fromConfig.stderr)")
    #expect(!fromConfig.stderr.contains(Self.demoToken) || command == "qa")
  }

  @Test("a refusal names its device; a violation is said with its fix; a loop says a few a minute")
  func findingsSaid() async throws {
    let serve = try await ServeProcess.start(app: [])
    let refused = try await Self.post(serve, token: "wrong", device: "PIXEL-8", attributes: "")
    #expect(refused.hasPrefix("HTTP/1.1 401"))
    let refusal = try await serve.process.readLine { $0.contains("refused") } ?? ""
    #expect(refusal.contains("refused PIXEL-8 (401)") && refusal.contains("fix:"))
    #expect(!refusal.contains(Self.demoToken) || !refusal.contains("wrong"))
    for _ in 0..<10 {
      let answer = try await Self.post(
        serve, token: Self.demoToken, device: "PIXEL-8",
        attributes: #"{"key":"contactKey","value":"alice"}"#)
      #expect(answer.hasPrefix("HTTP/1.1 201"))
    }
    let first = try await serve.process.readLine { $0.contains("PIXEL-8: violation") } ?? ""
    #expect(first.contains("reservedAttribute (R2.5)"))
    #expect(
      first.contains(
        "fix: stop sending contactKey as an attribute: set the contact key with the SDK's contact-key call"
      ))
    serve.process.terminate()
    let rest = Mutex<[String]>([])
    _ = try await serve.process.readLine { line in
      rest.withLock { $0.append(line) }
      return false
    }
    _ = try await serve.process.finish()
    // Ten registrations in a second, each with findings: three said in the minute, in all.
    let said = rest.withLock { $0 }.filter { $0.contains("PIXEL-8: violation") }.count + 1
    #expect(said == 3, "\(rest.withLock { $0 })")
  }
}

@Suite("regctl serve's files", .serialized, .timeLimit(.minutes(10)))
struct ServeFilesTests {
  @Test("--har naming the --db store, or a file another serve is writing, is refused")
  func refusedFiles() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("files-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let same = try await runProcess(
      try regctlURL(),
      ["serve", "--port", "0", "--db", folder + "/x.db", "--har", folder + "/./x.db"])
    #expect(
      same.status != 0 && same.stderr.contains("--har and --db name one file"), "\(same.stderr)")
    let first = try await ServeProcess.start(["--har", folder + "/one.har"])
    let second = try await runProcess(
      try regctlURL(), ["serve", "--port", "0", "--har", folder + "/one.har"],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(second.status != 0)
    #expect(second.stderr.contains("another RegScope is writing it"), "\(second.stderr)")
    try await first.stop()
  }
}
