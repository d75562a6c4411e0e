import Foundation
import TestSupport
import Testing

/// `--tenant` on the receivers (serve, qa) and the judge, through the real binary against the
/// stand-in tenant: the demographics used, refreshed on an API call, an attribute the tenant
/// lacks said on the registration with its fix, the secret never shown.
@Suite("receivers and the judge with --tenant, through the stand-in", .timeLimit(.minutes(10)))
struct TenantReceiverBinaryTests {
  /// A registration carrying `attributes`, as the Android SDK sends it.
  static func registration(device: String, attributes: [String: String]) -> [UInt8] {
    let body = sdkBody(device: device, app: "app", attributes: attributes)
    return Array(
      ("POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
        + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json\r\n"
        + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8)
  }

  static func refresh(_ port: Int, token: String = ServeProcess.token) async throws -> String {
    try await rawExchange(
      port: port,
      Array(
        ("POST /api/tenant/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
          + "Content-Length: 0\r\nConnection: close\r\n\r\n").utf8))
  }

  @Test(
    "serve: an attribute the tenant lacks is said on its registration, with the set, the fix and what is lost"
  )
  func undefinedSaid() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let serve = try await ServeProcess.start(["--tenant", try tenant.file()])
    let answer = try await rawExchange(
      port: serve.port,
      Self.registration(device: "PIXEL-T", attributes: ["FirstName": "Ada", "Plan": "gold"]))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    let line =
      try await serve.process.readLine { $0.contains("undefinedAttribute") } ?? ""
    try await serve.stop()
    #expect(
      line.contains(
        "PIXEL-T: warning undefinedAttribute (S5): not in the tenant's MobilePush Demographics: Plan, so processing rejects the whole registration after its 201 (S5): its contact key, push token, tags and every other attribute are lost with it; fix: add Plan to MobilePush Demographics in Contact Builder, or stop sending it"
      ), "\(line)")
    #expect(!line.contains(StandInTenant.secret))
  }

  @Test(
    "serve: POST /api/tenant/refresh reads the set again (token needed), says what changed; 409 without --tenant"
  )
  func refreshCall() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let serve = try await ServeProcess.start(["--tenant", try tenant.file()])
    tenant.define(StandInTenant.demographics + ["Plan"])
    let refused = try await Self.refresh(serve.port, token: "not-the-token-0123456789")
    #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
    let answer = try await Self.refresh(serve.port)
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    #expect(answer.contains(#""added" : ["#) && answer.contains(#""Plan""#), "\(answer)")
    #expect(answer.contains(#""attributeSet" : "MobilePush Demographics""#), "\(answer)")
    let line = try await serve.process.readLine { $0.contains("demographics refreshed") } ?? ""
    #expect(line.contains("(asked): 6 attributes, added Plan"), "\(line)")
    // The new table is the one used: Plan is accepted now.
    _ = try await rawExchange(
      port: serve.port, Self.registration(device: "PIXEL-R", attributes: ["Plan": "gold"]))
    let stats = try await serve.request(
      "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(stats.contains(#""Plan""#), "\(stats)")
    #expect(!stats.contains(StandInTenant.secret))
    try await serve.stop()
    let plain = try await ServeProcess.start()
    let none = try await Self.refresh(plain.port)
    try await plain.stop()
    #expect(none.hasPrefix("HTTP/1.1 409") && none.contains("started without --tenant"), "\(none)")
  }

  @Test("qa --tenant: the demographics named at start; a refused secret stops it, exit 2")
  func qaTenant() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let file = try tenant.file()
    let process = try InteractiveProcess(
      try regctlURL(),
      ["qa", "first-registration", "--yes", "--app-id", "app", "--port", "0", "--tenant", file],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    let line = try await process.readLine { $0.contains("demographics from") } ?? ""
    process.terminate()
    _ = try await process.finish()
    #expect(
      line.contains(
        "demographics from the tenant's MobilePush Demographics (client id standin-client-id, secret stan…(31 chars)"
      ), "\(line)")
    #expect(line.hasSuffix("5 attributes: Device ID, System Token, FirstName, LastName, Interests"))
    let refusing = try StandInTenant(.refuseSecret)
    defer { refusing.stop() }
    let refused = try await runProcess(
      try regctlURL(),
      [
        "qa", "first-registration", "--yes", "--app-id", "app", "--port", "0", "--tenant",
        try refusing.file(),
      ], environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(refused.status == 2)
    #expect(
      refused.stderr.contains("regctl qa: --tenant: the tenant refused the client id and secret"),
      "\(refused.stderr)")
    #expect(!refused.stderr.contains(StandInTenant.secret))
    let both = try await runProcess(
      try regctlURL(),
      ["qa", "first-registration", "--tenant", file, "--defined-attributes", "FirstName"])
    #expect(both.stderr.contains("give --tenant or --defined-attributes, not both"))
  }

  /// A capture of one Android registration carrying `attributes`, answered 201.
  static func capture(attributes: [String: String]) -> String {
    let body = sdkBody(device: "CAP-T", platform: "Android", app: "app", attributes: attributes)
    return #"""
      {"log":{"version":"1.2","creator":{"name":"mitmproxy","version":"11"},"entries":[
      {"startedDateTime":"2026-11-22T10:00:00.000+01:00","time":30,
       "request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1",
         "headers":[{"name":"User-Agent","value":"\#(androidAgent)"}],"queryString":[],"cookies":[],
         "headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":\#(jsonLiteral(body))}},
       "response":{"status":201,"statusText":"Created","httpVersion":"HTTP/1.1","headers":[],"cookies":[],
         "content":{"size":2,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},
       "cache":{},"timings":{"send":0,"wait":30,"receive":0}}]}}
      """#
  }

  @Test(
    "judge --tenant: the tenant's table finds the attribute it lacks, and explain replays with it")
  func judgeTenant() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let file = try tenant.file()
    let har = FileManager.default.temporaryDirectory
      .appendingPathComponent("tenant-\(UUID().uuidString).har").path
    try Data(Self.capture(attributes: ["FirstName": "Ada", "Plan": "gold"]).utf8)
      .write(to: URL(fileURLWithPath: har))
    defer { try? FileManager.default.removeItem(atPath: har) }
    let judged = try await regctl(["judge", har, "--tenant", file, "--fail-on", "warning"])
    #expect(judged.status == 1, "\(judged.stdout)\(judged.stderr)")
    #expect(
      judged.stdout.contains("not in the tenant's MobilePush Demographics: Plan"),
      "\(judged.stdout)"
    )
    #expect(judged.stdout.contains("add Plan to MobilePush Demographics in Contact Builder"))
    #expect(judged.stderr.contains("demographics from the tenant's MobilePush Demographics"))
    let explained = try await regctl(["judge", har, "--tenant", file, "--explain"])
    #expect(explained.stdout.contains("Plan"), "\(explained.stdout)")
    #expect(explained.stdout.contains("not in the demographics table"), "\(explained.stdout)")
    // Without a table the capture's attribute names are not judged.
    let plain = try await regctl(["judge", har, "--fail-on", "warning"])
    #expect(plain.status == 0, "\(plain.stdout)")
    for output in [judged, explained] {
      #expect(!(output.stdout + output.stderr).contains(StandInTenant.secret))
    }
  }
}
