import Foundation
import TestSupport
import Testing

/// `regctl serve` on a free port, as a user starts it (the token from the environment).
struct ServeProcess {
  static let token = "serve-test-token-0123456789"
  let process: InteractiveProcess
  let port: Int

  static func start(_ extra: [String] = [], app: [String] = ["--app-id", "app"]) async throws
    -> ServeProcess
  {
    // The token through the child's environment only: setenv here would reach every other
    // test's children too (one of them checks that serve refuses to start without a token).
    let process = try InteractiveProcess(
      try regctlURL(), ["serve"] + app + ["--port", "0"] + extra,
      environment: app.isEmpty ? [:] : ["REGSCOPE_ACCESS_TOKEN": Self.token])
    guard let line = try await process.readLine(where: { $0.hasPrefix("listening on ") }),
      let port = Int(line.split(separator: ":").last ?? "")
    else { throw NotListening(account: process.account) }
    return ServeProcess(process: process, port: port)
  }

  /// `regctl serve` ended, or said something else, before it said where it listens.
  struct NotListening: Error, CustomStringConvertible {
    let account: String
    var description: String { "regctl serve never said where it listens: \(account)" }
  }

  var openDescriptors: Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")
      .count) ?? -1
  }

  /// The open descriptors once the server has closed what it closes a second after answering
  /// (time for the client to read the answer). That happens in another process, with nothing
  /// to await: poll, bounded, until the count reaches `atMost` or stops falling.
  func settledDescriptors(atMost target: Int = 0) async throws -> Int {
    var open = openDescriptors
    var steady = 0
    for _ in 0..<100 where open > target && steady < 30 {
      try await Task.sleep(for: .milliseconds(50))
      let now = openDescriptors
      steady = now == open ? steady + 1 : 0
      open = now
    }
    return open
  }

  func request(_ head: String, body: [UInt8] = []) async throws -> String {
    try await rawExchange(port: port, Array(head.utf8) + body)
  }

  func stop() async throws {
    process.terminate()
    _ = try await process.finish()
  }
}

@Suite("regctl serve, as a client on loopback sees it", .serialized, .timeLimit(.minutes(10)))
struct ServeBinaryTests {
  @Test("a port already in use: said in words, with what to do")
  func portInUse() async throws {
    let first = try await ServeProcess.start()
    let second = try await runProcess(
      try regctlURL(), ["serve", "--port", "\(first.port)"])
    #expect(second.status != 0)
    #expect(
      second.stderr.contains(
        "cannot listen on 127.0.0.1:\(first.port): the port is in use: is another receiver running? --port 0 takes a free one"
      ), "\(second.stderr)")
    #expect(!second.stderr.contains("bind(descriptor"))
    try await first.stop()
  }

  @Test("one hostile fault request no longer kills the server; it answers 400 and goes on")
  func hugeFault() async throws {
    let serve = try await ServeProcess.start()
    #expect(serve.port > 0)
    let body = #"{"status":429,"retryAfter":1e20,"times":1}"#
    let answer = try await serve.request(
      "POST /api/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeProcess.token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    )
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
    #expect(answer.contains("retryAfter"))
    let stats = try await serve.request(
      "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(stats.hasPrefix("HTTP/1.1 200"), "\(stats)")
    try await serve.stop()
  }

  /// A registration as the Android SDK sends it, with this bearer token.
  static func androidRegistration(device: String, app: String, token: String) -> String {
    let body =
      #"{"deviceID":"\#(device)","etAppId":"\#(app)","platform":"Android","tags":["ALL"],"timeZone":"0"}"#
    return "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
      + "user-agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0\r\n"
      + "authorization: Bearer \(token)\r\ncontent-type: application/json\r\n"
      + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)"
  }

  @Test(
    "first contact: a refused app is said once a minute a device, with the fix, token unprinted")
  func refusedOncePerMinute() async throws {
    let serve = try await ServeProcess.start()
    let wrong = "not-the-apps-token-98765"
    for _ in 0..<3 {
      let answer = try await serve.request(
        Self.androidRegistration(device: "PIXEL-8", app: "app", token: wrong))
      #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
    }
    let accepted = try await serve.request(
      Self.androidRegistration(device: "OTHER", app: "app", token: ServeProcess.token))
    #expect(accepted.hasPrefix("HTTP/1.1 201"), "\(accepted)")
    var said: [String] = []
    while let line = try await serve.process.readLine(where: { _ in true }) {
      said.append(line)
      if line.contains("answered 201") { break }
    }
    let refusals = said.filter { $0.contains("refused") }
    #expect(refusals.count == 1, "\(said)")
    #expect(refusals.first?.contains("the bearer token is not this app's") == true)
    #expect(refusals.first?.contains("--any-app") == true)
    #expect(!said.joined().contains(wrong))
    let devices = try await serve.request(
      "GET /api/devices HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(devices.contains(#""refused" : 3"#), "\(devices)")
    #expect(devices.contains("the bearer token is not this app's"))
    try await serve.stop()
  }

  @Test("--any-app adopts the first registration's app and token, says so masked; loopback only")
  func anyApp() async throws {
    let serve = try await ServeProcess.start(app: ["--any-app"])
    let token = "my-apps-own-token-012345"
    let first = try await serve.request(
      Self.androidRegistration(device: "PIXEL-8", app: "my-app-id", token: token))
    #expect(first.hasPrefix("HTTP/1.1 201"), "\(first)")
    let adopted = try await serve.process.readLine { $0.contains("adopted app") }
    #expect(adopted?.contains("my-app-id") == true && adopted?.contains("my-a…(24 chars)") == true)
    #expect(adopted?.contains(token) == false)
    let other = try await serve.request(
      Self.androidRegistration(device: "EVIL", app: "my-app-id", token: "another-token-0123456789"))
    #expect(other.hasPrefix("HTTP/1.1 401"), "\(other)")
    try await serve.stop()
    let lan = try await runProcess(
      try regctlURL(), ["serve", "--any-app", "--listen", "0.0.0.0", "--port", "0"])
    #expect(lan.status != 0 && lan.stderr.contains("--any-app works on loopback only"))
  }

  @Test("405 with Allow for a known path asked with another method")
  func methodNotAllowed() async throws {
    let serve = try await ServeProcess.start()
    let answer = try await serve.request(
      "PATCH /api/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
    #expect(answer.lowercased().contains("allow: delete, post"))
    try await serve.stop()
  }

  @Test("oversize uploads with Connection: close get their answer and leave no socket open")
  func noDescriptorLeak() async throws {
    let serve = try await ServeProcess.start()
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 2 * 1024 * 1024)
    func upload(_ authorization: String) async throws {
      let answer = try await serve.request(
        "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)"
          + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n",
        body: body)
      #expect(answer.hasPrefix("HTTP/1.1 413") || answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
    }
    let authorizations = ["Authorization: Bearer \(ServeProcess.token)\r\n", ""]
    // One of each first: what the server opens once, on first use (an event loop's own
    // descriptors), is not a leak.
    for authorization in authorizations { try await upload(authorization) }
    let baseline = try await serve.settledDescriptors()
    for authorization in authorizations {
      for _ in 0..<15 { try await upload(authorization) }
    }
    let open = try await serve.settledDescriptors(atMost: baseline)
    #expect(open <= baseline, "\(baseline) descriptors before, \(open) after 30 uploads")
    try await serve.stop()
  }

  @Test("--tls-cert and --tls-key serve https; a file that is no certificate is named")
  func https() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (cert, key) = (
      folder.appendingPathComponent("cert.pem").path, folder.appendingPathComponent("key.pem").path
    )
    let made = try await runTool(
      "openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days",
        "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let serve = try await ServeProcess.start(["--tls-cert", cert, "--tls-key", key])
    let answer = try await runTool(
      "curl", ["-s", "--cacert", cert, "https://127.0.0.1:\(serve.port)/api/stats"])
    #expect(answer.status == 0, "\(answer.stderr)")
    #expect(answer.stdout.contains("distinctContacts"))
    // Plain http on the same port gets no answer it could read as one.
    let plain = try await runTool(
      "curl", ["-s", "-m", "5", "http://127.0.0.1:\(serve.port)/api/stats"])
    #expect(!plain.stdout.contains("distinctContacts"))
    try await serve.stop()
    let refused = try await runProcess(
      try regctlURL(), ["serve", "--app-id", "app", "--tls-cert", key, "--tls-key", key],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("--tls-cert \(key): not a PEM certificate"))
  }

  @Test(
    "an Android-shaped client: in /api/devices at once, SDK and platform read, no findings; a change, then the same body again: a background send, then one violation"
  )
  func watchesAndroidClient() async throws {
    let serve = try await ServeProcess.start()
    func register(_ tags: String) async throws -> String {
      let body =
        #"{"app_Version":"1.0","attributes":[],"dST":false,"deviceID":"PIXEL-8","etAppId":"app","hwid":"Google Pixel 8","locale":"en_US","location_Enabled":false,"platform":"Android","platform_Version":"14","proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,"registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","tags":[\#(tags)],"timeZone":"0","uuid":"\#(UUID().uuidString)"}"#
      // The Android SDK's header names are lower case (SDK-FACTS).
      return try await serve.request(
        "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json\r\n"
          + "content-type: application/json; charset=utf-8\r\n"
          + "user-agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0\r\n"
          + "authorization: Bearer \(ServeProcess.token)\r\nx-sdk-version: 10.0.0\r\n"
          + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)")
    }
    func client() async throws -> [String: Any] {
      let answer = try await serve.request(
        "GET /api/devices HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      let json = String(answer.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      let device = (object?["devices"] as? [[String: Any]])?.first {
        $0["deviceID"] as? String == "PIXEL-8"
      }
      return try #require(device?["client"] as? [String: Any])
    }
    let first = try await register(#""ALL""#)
    #expect(first.hasPrefix("HTTP/1.1 201"), "\(first)")
    #expect(first.lowercased().contains("x-subscriber-token: rs-"))
    var seen = try await client()
    #expect(seen["sdk"] as? String == "android" && seen["platform"] as? String == "Android")
    #expect(seen["sdkVersion"] as? String == "10.0.0")
    #expect((seen["findings"] as? [String: Int])?.isEmpty == true)
    _ = try await register(#""ALL","sports""#)
    _ = try await register(#""ALL","sports""#)
    seen = try await client()
    #expect(
      (seen["findings"] as? [String: Int])
        == ["backgroundSend": 1, "throttleViolated": 1])
    try await serve.stop()
  }
}
