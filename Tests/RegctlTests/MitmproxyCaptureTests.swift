import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// mitmproxy's `mitmdump`, from PATH: CI installs it (`pip install mitmproxy`).
let mitmdump: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
  .split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("mitmdump") }
  .first { FileManager.default.isExecutableFile(atPath: $0.path) }

/// In CI the capture test must run: a missing mitmdump there is a failure, not a skip.
let mustCapture = mitmdump != nil || ProcessInfo.processInfo.environment["CI"] != nil

/// A HAR that a real exporter wrote: mitmproxy in front of `regctl serve`, an Android-shaped
/// client through a 503 and a 429, and `regctl judge` on the file mitmproxy saved.
@Suite("a capture mitmproxy wrote", .serialized, .timeLimit(.minutes(10)))
struct MitmproxyCaptureTests {
  @Test(
    "regctl judge on mitmproxy's HAR gives the findings the live watch gave",
    .enabled(if: mustCapture))
  func sameFindings() async throws {
    let tool = try #require(mitmdump, "mitmdump is not on PATH: pip install mitmproxy")
    let serve = try await ServeProcess.start()
    let proxyPort = try #require(freeLoopbackPort())
    let har = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mitm-\(UUID().uuidString).har"
    ).path
    // Started with no signal blocked (`SpawnedChild`): mitmdump sees the SIGTERM that makes
    // it save.
    let proxy = try InteractiveProcess(
      tool,
      [
        "--mode", "reverse:http://127.0.0.1:\(serve.port)", "--listen-host", "127.0.0.1", "-p",
        "\(proxyPort)", "--set", "hardump=\(har)",
      ])
    // mitmdump says when it listens.
    let listening = try await proxy.readLine { $0.contains("listening at") }
    try #require(listening != nil, "mitmdump did not start")

    var token: String?
    func register(_ tags: [String]) async throws -> Int {
      let body = sdkBody(device: "MITM-1", platform: "Android", app: "app", tags: tags)
      var head =
        "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
        + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json; charset=utf-8\r\n"
        + "x-sdk-version: 10.0.0\r\n"
      if let token { head += "x-subscriber-token: \(token)\r\n" }
      head += "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"
      let answer = try await rawExchange(port: proxyPort, Array((head + body).utf8))
      for line in answer.components(separatedBy: "\r\n")
      where line.lowercased().hasPrefix("x-subscriber-token:") {
        token = String(line.dropFirst("x-subscriber-token:".count)).trimmingCharacters(
          in: .whitespaces)
      }
      return Int(answer.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    func fault(_ json: String) async throws {
      let answer = try await serve.request(
        "POST /api/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeProcess.token)\r\n"
          + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }
    #expect(try await register(["ALL"]) == 201)
    try await fault(#"{"status": 503, "times": 1}"#)
    #expect(try await register(["ALL", "sports"]) == 503)
    #expect(try await register(["ALL", "sports"]) == 201)  // at once: the SDK waits 60 s
    try await fault(#"{"status": 429, "retryAfter": 120, "times": 1}"#)
    #expect(try await register(["ALL", "news"]) == 429)
    #expect(try await register(["ALL", "news"]) == 201)  // before Retry-After

    let live = try await serve.request(
      "GET /api/devices/MITM-1/registrations HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    let liveBody = live.components(separatedBy: "\r\n\r\n").dropFirst().joined(
      separator: "\r\n\r\n")
    let liveFindings = try Self.findings(liveBody)

    // mitmdump saves the HAR as it shuts down, on SIGTERM.
    proxy.terminate()
    _ = try await proxy.finish()
    try await serve.stop()
    let judged = try await regctl(["judge", "--json", "--fail-on", "never", har])
    #expect(judged.status == 0, "\(judged.stderr)")
    let line = try #require(judged.stdout.split(separator: "\n").first)
    let captured = try Self.findings(String(line))
    #expect(captured.count == 5)
    #expect(captured == liveFindings)
    #expect(liveFindings.flatMap { $0 }.contains { $0.hasSuffix("/violation") })
    #expect(!judged.stdout.contains(ServeProcess.token))
  }

  /// Each registration's findings (code/severity) from a timeline's JSON.
  static func findings(_ json: String) throws -> [[String]] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return (object?["registrations"] as? [[String: Any]] ?? []).map { entry in
      (entry["findings"] as? [[String: Any]] ?? []).map {
        "\($0["code"] ?? "")/\($0["severity"] ?? "")"
      }
    }
  }
}
