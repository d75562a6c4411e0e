import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A capture as a browser's developer tools export it: an Android app that registered, got a
/// 503, and retried 5 s later (the Android SDK waits 60 s: a violation), with its tokens.
func browserCapture(retryAfter: Double = 5) -> String {
  let body = sdkBody(device: "CAP-1", platform: "Android", app: "app")
  func entry(_ time: String, status: Int, token: String?) -> String {
    let tokenHeader = token.map { #",{"name":"X-Subscriber-Token","value":"\#($0)"}"# } ?? ""
    return #"""
      {"_initiator":{"type":"other"},"_priority":"High","startedDateTime":"\#(time)","time":-1,
       "request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/2",
         "headers":[{"name":"User-Agent","value":"\#(androidAgent)"},{"name":"Authorization","value":"Bearer secret-app-token-0123456789"}\#(tokenHeader)],
         "queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,
         "postData":{"mimeType":"application/json","text":\#(jsonLiteral(body))}},
       "response":{"status":\#(status),"statusText":"","httpVersion":"HTTP/2",
         "headers":[{"name":"X-Subscriber-Token","value":"tenant-subscriber-token-42"}],
         "cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},
       "cache":{},"timings":{"blocked":-1,"dns":-1,"connect":-1,"send":0,"wait":30,"receive":0},"comment":""}
      """#
  }
  return
    #"{"log":{"version":"1.2","creator":{"name":"Firefox","version":"133"},"pages":[],"entries":["#
    + entry("2026-11-22T10:00:00.000+01:00", status: 201, token: nil) + ","
    + entry("2026-11-22T10:01:30.000+01:00", status: 503, token: "tenant-subscriber-token-42") + ","
    + entry(
      "2026-11-22T10:01:\(Int(30 + retryAfter)).000+01:00", status: 201,
      token: "tenant-subscriber-token-42")
    + "]}}"
}

/// A JSON string literal of `text`.
func jsonLiteral(_ text: String) -> String {
  String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
    .dropFirst().dropLast().description
}

@Suite("judging captures with the real binary", .serialized, .timeLimit(.minutes(10)))
struct CaptureBinaryTests {
  @Test("regctl judge: the timeline and its findings, tokens never printed, exit 1 on a violation")
  func judgeText() async throws {
    let path = try temporaryFile("capture.har", browserCapture())
    let output = try await regctl(["judge", path])
    #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
    #expect(output.stdout.contains("device CAP-1  Android SDK 10.0.0"))
    #expect(output.stdout.contains("x violation"))
    #expect(output.stdout.contains("subscriber token sent back"))
    for secret in ["secret-app-token-0123456789", "tenant-subscriber-token-42"] {
      #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
    }
    let never = try await regctl(["judge", "--fail-on", "never", path])
    #expect(never.status == 0)
  }

  @Test("--json: one object per device, shaped as the live timeline, the token masked")
  func judgeJSON() async throws {
    let path = try temporaryFile("capture.har", browserCapture())
    let output = try await regctl(["judge", "--json", "--fail-on", "never", path])
    #expect(output.status == 0, "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(object?["deviceID"] as? String == "CAP-1")
    #expect(object?["registrationCount"] as? Int == 3)
    let client = object?["client"] as? [String: Any]
    #expect(client?["sdk"] as? String == "android")
    #expect((client?["severities"] as? [String: Int])?["violation"] ?? 0 > 0)
    #expect(!output.stdout.contains("tenant-subscriber-token-42"))
    #expect((client?["subscriberToken"] as? String)?.contains("#") == true)
  }

  @Test("--fail-on warning passes a capture with notes only; a correct app exits 0")
  func correctApp() async throws {
    let path = try temporaryFile("capture.har", browserCapture(retryAfter: 65))
    let output = try await regctl(["judge", "--fail-on", "warning", path])
    #expect(output.status == 0, "\(output.stdout)")
    #expect(!output.stdout.contains("x violation"))
  }

  @Test(
    "files that cannot be judged: a clear error naming the file, exit 2",
    arguments: [
      ("broken.har", "{\"log\": {\"entries\": [", "not JSON: line 1"),
      ("list.har", "[1,2]", "not a JSON object with a \"log\""),
      ("nolog.har", "{\"entries\": []}", "no \"log\""),
    ])
  func unreadable(name: String, text: String, says: String) async throws {
    let path = try temporaryFile(name, text)
    let output = try await regctl(["judge", path])
    #expect(output.status == 2)
    #expect(output.stderr.contains(name) && output.stderr.contains(says), "\(output.stderr)")
    let missing = try await regctl(["judge", "/nonexistent/capture.har"])
    #expect(missing.status == 2 && missing.stderr.contains("cannot be read"))
  }

  @Test("serve --har: on SIGTERM the file holds every exchange, valid HAR, tokens masked")
  func serveHar() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "har-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("session.har").path
    let serve = try await ServeProcess.start(["--har", path])
    for device in ["H1", "H2"] {
      let answer = try await serve.request(
        ServeBinaryTests.androidRegistration(device: device, app: "app", token: ServeProcess.token))
      #expect(answer.hasPrefix("HTTP/1.1 201"))
    }
    try await serve.stop()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let entries = (document?["log"] as? [String: Any])?["entries"] as? [[String: Any]]
    #expect(entries?.count == 2)
    #expect(!text.contains(ServeProcess.token))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let judged = try await regctl(["judge", "--json", "--fail-on", "never", path])
    #expect(judged.stdout.split(separator: "\n").count == 2, "\(judged.stdout)")
  }

  @Test("serve --har killed with -9: the file is still a valid capture of what came before")
  func killed() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "killed-\(UUID().uuidString).har"
    ).path
    let serve = try await ServeProcess.start(["--har", path])
    _ = try await serve.request(
      ServeBinaryTests.androidRegistration(device: "K1", app: "app", token: ServeProcess.token))
    // The server says when it has written the capture.
    let written = try await serve.process.readLine { $0.hasPrefix("capture: 1 exchange written") }
    #expect(written != nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("K1"))
    serve.process.signal(SIGKILL)
    _ = try await serve.process.finish()
    let after = try String(contentsOfFile: path, encoding: .utf8)
    #expect((try? JSONSerialization.jsonObject(with: Data(after.utf8))) != nil)
    let judged = try await regctl(["judge", "--fail-on", "never", path])
    #expect(judged.status == 0 && judged.stdout.contains("device K1"))
  }
}
