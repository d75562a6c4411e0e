import Foundation
import TestSupport
import Testing

/// `regctl bundle` and `POST /api/devices/{id}/bundle` (#54) against a real `regctl serve`, read
/// back with Python's own zipfile (not RegScope's reader), as support would unzip it.
@Suite("debug bundles, made and read as a user would", .serialized, .timeLimit(.minutes(10)))
struct BundleBinaryTests {
  static let device = "PIXEL-8-BUNDLE"
  static let contactKey = "alice@example.com"
  static let secretValue = "SecretValue42"
  static let team = "Lions"

  /// A folder of its own for one test.
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bundle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A receiver with a demographics table and a capture, and an app that makes known mistakes:
  /// a reserved attribute (contactKey, R2.5) and an attribute the table lacks (S5). Returns
  /// the subscriber token the receiver handed out.
  static func receiverWithMistakes(_ folder: URL, extra: [String] = []) async throws -> (
    ServeProcess, String
  ) {
    let serve = try await ServeProcess.start(
      [
        "--defined-attributes", "FavoriteTeam", "--har",
        folder.appendingPathComponent("live.har").path,
      ]
        + extra)
    let body = sdkBody(
      device: device, app: "app", key: contactKey,
      attributes: ["contactKey": "c-key-9", "Undefined1": secretValue, "FavoriteTeam": team])
    let answer = try await serve.request(
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
        + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json\r\n"
        + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)")
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    let token =
      answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-subscriber-token:") }
      .map {
        String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
      }
    return (serve, token ?? "")
  }

  /// Unzipped by Python's zipfile, each file's size and SHA-256 checked against the manifest.
  struct Unzipped {
    var names: [String]
    var checked: Int
    var mismatched: [String]
    var redacted: Bool
    /// Every file's text, one after another.
    var allText: String
    var folder: URL

    func text(_ name: String) throws -> String {
      try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
  }

  static func unzip(_ zip: String) async throws -> Unzipped {
    let into = try folder()
    let script = """
      import hashlib,json,sys,zipfile
      z=zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2])
      m=json.loads(z.read('manifest.json'))
      bad=[f['path'] for f in m['files'] if hashlib.sha256(z.read(f['path'])).hexdigest()!=f['sha256'] or len(z.read(f['path']))!=f['bytes']]
      print(json.dumps({"names":sorted(z.namelist()),"checked":len(m['files']),"bad":bad,"redacted":m['redacted'] is not None}))
      """
    let output = try await runTool("python3", ["-c", script, zip, into.path])
    try #require(output.status == 0, "\(output.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let names = report["names"] as? [String] ?? []
    var all = ""
    for name in names {
      all += (try? String(contentsOf: into.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }
    return Unzipped(
      names: names, checked: report["checked"] as? Int ?? 0,
      mismatched: report["bad"] as? [String] ?? ["?"],
      redacted: report["redacted"] as? Bool ?? false,
      allText: all, folder: into)
  }

  @Test("regctl bundle from a receiver: README, capture, JSON, manifest hashes; no token whole")
  func fromReceiver() async throws {
    let folder = try Self.folder()
    let (serve, subscriberToken) = try await Self.receiverWithMistakes(folder)
    let zip = folder.appendingPathComponent("ticket.zip").path
    let made = try await runProcess(
      try regctlURL(), ["bundle", "--receiver", "http://127.0.0.1:\(serve.port)", "-o", zip],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    try await serve.stop()
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("1 device"), "\(made.stdout)")
    let bundle = try await Self.unzip(zip)
    #expect(
      bundle.mismatched.isEmpty && bundle.checked == bundle.names.count - 1, "\(bundle.names)")
    for part in ["README.md", "manifest.json", "settings.json", "capture.har"] {
      #expect(bundle.names.contains(part), "\(bundle.names)")
    }
    for part in ["device.json", "timeline.json", "findings.json", "fields.json", "explain.json"] {
      #expect(bundle.names.contains { $0.hasPrefix("devices/1-") && $0.hasSuffix("/" + part) })
    }
    let readme = try bundle.text("README.md")
    #expect(readme.contains("## Device \(Self.device)"), "\(readme)")
    #expect(readme.contains("reservedAttribute (R2.5)") && readme.contains("Fix:"), "\(readme)")
    #expect(readme.contains("attribute Undefined1"), "\(readme)")
    #expect(readme.contains("FavoriteTeam") && readme.contains("regscope --open"))
    #expect(!bundle.redacted && readme.contains("Not redacted"))
    // The capture is HAR 1.2 with the registration; the settings name the table.
    let har = try bundle.text("capture.har")
    #expect(har.contains("\"version\" : \"1.2\"") && har.contains(Self.device))
    #expect(try bundle.text("settings.json").contains("FavoriteTeam"))
    // No secret whole anywhere: the app's token, the subscriber token handed out.
    #expect(!bundle.allText.contains(ServeProcess.token))
    #expect(!subscriberToken.isEmpty && !bundle.allText.contains(subscriberToken))
    // regctl judge of the bundle gives the receiver's findings.
    let judged = try await regctl(["judge", "--json", "--fail-on", "never", zip])
    #expect(judged.status == 0, "\(judged.stderr)")
    let timeline = try bundle.text(
      try #require(bundle.names.first { $0.hasSuffix("/timeline.json") }))
    #expect(Self.findingCodes(judged.stdout) == Self.findingCodes(timeline), "\(judged.stdout)")
    #expect(Self.findingCodes(timeline).contains("reservedAttribute"))
    let gate = try await regctl(["judge", zip])
    #expect(gate.status == 1 && gate.stdout.contains("reservedAttribute"), "\(gate.stdout)")
  }

  /// Every finding code a timeline (or a judge's lines of them) holds.
  static func findingCodes(_ text: String) -> Set<String> {
    let pattern = try! Regex(#""code"\s*:\s*"(\w+)""#)
    return Set(text.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
  }

  @Test("--redact: no contact key, device id or attribute value whole; equal values equal")
  func redacted() async throws {
    let folder = try Self.folder()
    let (serve, _) = try await Self.receiverWithMistakes(folder)
    let zip = folder.appendingPathComponent("redacted.zip").path
    let made = try await regctl([
      "bundle", "--receiver", "http://127.0.0.1:\(serve.port)", "--redact", "-o", zip,
    ])
    try await serve.stop()
    #expect(made.status == 0, "\(made.stderr)")
    let bundle = try await Self.unzip(zip)
    #expect(bundle.redacted && bundle.mismatched.isEmpty)
    for value in [Self.device, Self.contactKey, Self.secretValue, Self.team, "c-key-9"] {
      #expect(!bundle.allText.contains(value), "\(value) is in the redacted bundle")
    }
    #expect(!bundle.allText.contains(ServeProcess.token))
    let readme = try bundle.text("README.md")
    #expect(readme.contains("Redacted (--redact)") && readme.contains("HMAC-SHA256"))
    // One device id, one hash: its folder, its README heading and its capture agree.
    let hashed = try #require(
      readme.split(separator: "\n").first { $0.hasPrefix("## Device rd-") }?.dropFirst(10))
    #expect(bundle.names.contains { $0.contains(String(hashed)) }, "\(bundle.names)")
    #expect(try bundle.text("capture.har").contains(String(hashed)))
    // Still judged: the findings come through.
    let judged = try await regctl(["judge", "--json", "--fail-on", "never", zip])
    #expect(Self.findingCodes(judged.stdout).contains("reservedAttribute"), "\(judged.stdout)")
  }

  @Test("POST /api/devices/{id}/bundle: the zip, behind the token; 404 for an unknown device")
  func fromTheAPI() async throws {
    let folder = try Self.folder()
    let (serve, _) = try await Self.receiverWithMistakes(folder)
    let zip = folder.appendingPathComponent("api.zip").path
    let base = "http://127.0.0.1:\(serve.port)/api/devices/"
    func post(_ device: String, token: String?, to path: String) async throws -> String {
      let auth = token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []
      return try await runTool(
        "curl",
        ["-s", "-o", path, "-w", "%{http_code} %{content_type}", "-X", "POST"] + auth + [
          base + device
        ]
      ).stdout
    }
    #expect(try await post(Self.device + "/bundle", token: nil, to: "/dev/null").hasPrefix("401"))
    #expect(
      try await post("NOBODY/bundle", token: ServeProcess.token, to: "/dev/null").hasPrefix("404"))
    let answered = try await post(
      Self.device + "/bundle?redact=true", token: ServeProcess.token, to: zip)
    try await serve.stop()
    #expect(answered == "200 application/zip", "\(answered)")
    let bundle = try await Self.unzip(zip)
    #expect(bundle.redacted && bundle.mismatched.isEmpty && bundle.names.contains("capture.har"))
    #expect(
      !bundle.allText.contains(Self.contactKey) && !bundle.allText.contains(ServeProcess.token))
    #expect(try bundle.text("README.md").contains("reservedAttribute (R2.5)"))
  }

  @Test("refused: an existing file (without --force), a symbolic link, the store, a live capture")
  func refusals() async throws {
    let folder = try Self.folder()
    let store = folder.appendingPathComponent("store.sqlite").path
    let (serve, _) = try await Self.receiverWithMistakes(folder, extra: ["--db", store])
    let receiver = ["bundle", "--receiver", "http://127.0.0.1:\(serve.port)"]
    let existing = folder.appendingPathComponent("existing.zip").path
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
    let kept = try await regctl(receiver + ["-o", existing])
    #expect(kept.status == 1 && kept.stderr.contains("exists: give --force"), "\(kept.stderr)")
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    let forced = try await regctl(receiver + ["-o", existing, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: existing)).prefix(2) == Data("PK".utf8))
    let link = folder.appendingPathComponent("link.zip").path
    let target = folder.appendingPathComponent("target.txt").path
    try Data("target".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let linked = try await regctl(receiver + ["-o", link, "--force"])
    #expect(linked.status == 1 && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
    let overStore = try await regctl(receiver + ["-o", store, "--force"])
    #expect(overStore.status == 1 && overStore.stderr.contains("SQLite"), "\(overStore.stderr)")
    let live = folder.appendingPathComponent("live.har").path
    let overCapture = try await regctl(receiver + ["-o", live, "--force"])
    #expect(
      overCapture.status == 1 && overCapture.stderr.contains("capture a RegScope is writing"),
      "\(overCapture.stderr)")
    try await serve.stop()
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)).prefix(6) == Data("SQLite".utf8))
  }

  @Test("past 64 MiB a bundle is refused, and nothing is written")
  func sizeBound() async throws {
    let folder = try Self.folder()
    let large = folder.appendingPathComponent("huge-report.md")
    // Sparse: 65 MiB said, no 65 MiB written.
    #expect(FileManager.default.createFile(atPath: large.path, contents: nil))
    let handle = try FileHandle(forWritingTo: large)
    try handle.truncate(atOffset: 65 << 20)
    try handle.close()
    let zip = folder.appendingPathComponent("big.zip").path
    let refused = try await regctl(["bundle", "--qa-report", large.path, "-o", zip])
    #expect(refused.status == 1 && refused.stderr.contains("64 MiB"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: zip))
  }

  @Test("from files: a capture judged, a state dump and a QA report as they are")
  func fromFiles() async throws {
    let folder = try Self.folder()
    let (serve, _) = try await Self.receiverWithMistakes(folder)
    try await serve.stop()
    let report = folder.appendingPathComponent("qa.md")
    try Data("# QA\n\nResult: **failed**\n".utf8).write(to: report)
    let zip = folder.appendingPathComponent("files.zip").path
    let made = try await regctl([
      "bundle", "--har", folder.appendingPathComponent("live.har").path, "--defined-attributes",
      "FavoriteTeam", "--state-dump", fixture("android-sdk-state.json"), "--qa-report", report.path,
      "-o", zip,
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let bundle = try await Self.unzip(zip)
    #expect(
      bundle.names.contains("qa/qa.md")
        && bundle.names.contains("state-dumps/android-sdk-state.json"))
    // The dump's reading beside it, as regctl state --import says it.
    let reading = try bundle.text("state-dumps/android-sdk-state.json.reading.txt")
    #expect(
      reading.contains("orphanRisk (R8.3)") && reading.contains("next registration"), "\(reading)")
    let readme = try bundle.text("README.md")
    #expect(
      readme.contains("Result: **failed**") && readme.contains("reservedAttribute"), "\(readme)")
    #expect(readme.contains("attribute Undefined1"), "\(readme)")
  }
}

extension BundleBinaryTests {
  /// A capture as an exporter writes it, secrets and all: a bearer token, a cookie, the
  /// subscriber token handed out, and a tenant token answer with its secret.
  static func rawCapture() -> String {
    let body = sdkBody(
      device: "RAW-DEVICE-77", app: "app", key: "erin@example.com",
      attributes: ["FavoriteTeam": "Bears"])
    let quoted = String(
      decoding: try! JSONSerialization.data(withJSONObject: [body]), as: UTF8.self
    ).dropFirst().dropLast()
    let token =
      #"{\"access_token\":\"tenant-access-token-9999\",\"client_secret\":\"tenant-client-secret-8888\"}"#
    let headers =
      #"[{"name":"User-Agent","value":"\#(androidAgent)"},{"name":"Authorization","value":"Bearer raw-app-token-0123456789"},{"name":"Cookie","value":"session=raw-cookie-value-5555"}]"#
    let registration =
      #"{"startedDateTime":"2026-11-22T10:00:00.000Z","time":20,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1","headers":\#(headers),"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":\#(quoted)}},"response":{"status":201,"statusText":"","httpVersion":"HTTP/1.1","headers":[{"name":"X-Subscriber-Token","value":"raw-subscriber-token-4444"}],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":20,"receive":0}}"#
    let tokenCall =
      #"{"startedDateTime":"2026-11-22T10:00:01.000Z","time":20,"request":{"method":"POST","url":"https://auth.example.com/v2/token","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1},"response":{"status":200,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"\#(token)"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":20,"receive":0}}"#
    return
      #"{"log":{"version":"1.2","creator":{"name":"mitmproxy","version":"11"},"entries":[\#(registration),\#(tokenCall)]}}"#
  }

  @Test("an exporter's capture and a dump: no secret whole, and with --redact no value either")
  func exporterSecrets() async throws {
    let folder = try Self.folder()
    let har = folder.appendingPathComponent("mitm.har").path
    try Self.rawCapture().write(toFile: har, atomically: true, encoding: .utf8)
    let secrets = [
      "raw-app-token-0123456789", "raw-cookie-value-5555", "raw-subscriber-token-4444",
      "tenant-access-token-9999", "tenant-client-secret-8888",
    ]
    for redact in [false, true] {
      let zip = folder.appendingPathComponent("exported-\(redact).zip").path
      let made = try await regctl(
        ["bundle", "--har", har, "--state-dump", fixture("android-sdk-state.json"), "-o", zip]
          + (redact ? ["--redact"] : []))
      #expect(made.status == 0, "\(made.stderr)")
      let bundle = try await Self.unzip(zip)
      #expect(bundle.mismatched.isEmpty)
      for secret in secrets {
        #expect(!bundle.allText.contains(secret), "\(secret) is whole in the bundle")
      }
      let values = [
        "RAW-DEVICE-77", "erin@example.com", "Bears", "ANDROID-DEVICE-1", "user-1001", "Tigers",
      ]
      for value in values {
        #expect(bundle.allText.contains(value) != redact, "\(value), redact \(redact)")
      }
      // Still a capture regctl judges, with the same device (hashed or not).
      let judged = try await regctl(["judge", "--json", "--fail-on", "never", zip])
      #expect(judged.status == 0 && judged.stdout.split(separator: "\n").count == 1)
    }
  }
}

extension BundleBinaryTests {
  @Test("MCP make_bundle writes the device's bundle; judge_capture reads it back")
  func mcpMakeBundle() async throws {
    let folder = try Self.folder()
    let (serve, _) = try await Self.receiverWithMistakes(folder)
    let mcp = try InteractiveProcess(
      try regctlURL(), ["mcp", "--receiver", "http://127.0.0.1:\(serve.port)"])
    _ = try await MCPBinaryTests.ask(
      mcp, 1, "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
        "clientInfo": ["name": "test", "version": "1"],
      ])
    mcp.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n")
    let zip = folder.appendingPathComponent("mcp.zip").path
    let refused = try await MCPBinaryTests.call(
      mcp, 2, "make_bundle", ["token": "not-the-token-000", "deviceID": Self.device, "path": zip])
    #expect(refused.isError && refused.text.contains("401"), "\(refused.text)")
    let made = try await MCPBinaryTests.call(
      mcp, 3, "make_bundle",
      ["token": ServeProcess.token, "deviceID": Self.device, "path": zip, "redact": "true"])
    #expect(!made.isError && made.text.contains("bundle written: "), "\(made.text)")
    #expect(made.text.contains("reservedAttribute (R2.5)") && !made.text.contains(Self.contactKey))
    let again = try await MCPBinaryTests.call(
      mcp, 4, "make_bundle", ["token": ServeProcess.token, "deviceID": Self.device, "path": zip])
    #expect(again.isError && again.text.contains("exists"), "\(again.text)")
    let judged = try await MCPBinaryTests.call(mcp, 5, "judge_capture", ["path": zip])
    #expect(!judged.isError && judged.text.contains("reservedAttribute"), "\(judged.text)")
    #expect(try await mcp.finish() == 0)
    try await serve.stop()
    let bundle = try await Self.unzip(zip)
    #expect(bundle.redacted && bundle.mismatched.isEmpty)
    #expect(!bundle.allText.contains(ServeProcess.token) && !bundle.allText.contains(Self.device))
  }
}

@Suite("regctl qa --bundle", .serialized, .timeLimit(.minutes(10)))
struct QABundleBinaryTests {
  @Test("a failed run still writes its bundle: the report, the device's verdict, the capture")
  func failedRunBundled() async throws {
    let folder = try BundleBinaryTests.folder()
    let zip = folder.appendingPathComponent("qa-bundle.zip").path
    let process = try InteractiveProcess(
      try regctlURL(),
      [
        "qa", "first-registration", "--yes", "--app-id", "app", "--port", "0", "--bundle", zip,
        "--defined-attributes", "FavoriteTeam", "--report",
        folder.appendingPathComponent("qa.md").path,
      ], environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    let line = try await process.readLine { $0.contains("point the app at") } ?? ""
    let port = Int(line.split(separator: ":").last ?? "") ?? 0
    // A reserved attribute: a violation, so the plan's no-violation step fails.
    let body = sdkBody(
      device: "QA-BUNDLE-1", app: "app", key: "bob@example.com",
      attributes: ["contactKey": "x-1", "FavoriteTeam": "Tigers"])
    let answer = try await rawExchange(
      port: port,
      Array(
        ("POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
          + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json\r\n"
          + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    #expect(try await process.finish() == 1)
    let bundle = try await BundleBinaryTests.unzip(zip)
    #expect(bundle.mismatched.isEmpty, "\(bundle.names)")
    #expect(bundle.names.contains("qa/qa-report.md") && bundle.names.contains("qa/qa-report.xml"))
    #expect(bundle.names.contains("capture.har"))
    let readme = try bundle.text("README.md")
    #expect(readme.contains("Result: **failed**"), "\(readme)")
    #expect(readme.contains("## Device QA-BUNDLE-1") && readme.contains("reservedAttribute"))
    #expect(!bundle.allText.contains(ServeProcess.token))
  }
}
