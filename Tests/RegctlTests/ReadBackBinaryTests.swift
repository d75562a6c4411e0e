import Foundation
import TestSupport
import Testing

/// "Did it arrive?" through the real binary (#46): `regctl serve` relaying to the stand-in
/// tenant (its device route files a registration as processing does, S5 included) and reading
/// back through its address search a second after each 2xx (`--read-back-after 1`).
@Suite("the read-back through regctl serve and the stand-in tenant", .timeLimit(.minutes(10)))
struct ReadBackBinaryTests {
  static func registration(device: String, attributes: [String: String]) -> [UInt8] {
    let body = sdkBody(device: device, app: "app", key: "user-1", attributes: attributes)
    return Array(
      ("POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
        + "authorization: Bearer \(ServeProcess.token)\r\ncontent-type: application/json\r\n"
        + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8)
  }

  @Test(
    "held as sent, then not arrived for an attribute the tenant lacks: said, on the fields and the timeline"
  )
  func readBack() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let serve = try await ServeProcess.start([
      "--tenant", try tenant.file(), "--upstream", "http://127.0.0.1:\(tenant.port)",
      "--read-back-after", "1",
    ])
    let stated =
      try await serve.process.readLine { $0.contains("did it arrive? the tenant is asked") } ?? ""
    #expect(stated.contains("asked 1 s after each relayed 2xx"), "\(stated)")
    let first = try await rawExchange(
      port: serve.port, Self.registration(device: "PIXEL-OK", attributes: ["FirstName": "Ada"]))
    #expect(first.hasPrefix("HTTP/1.1 201"), "\(first)")
    let held = try await serve.process.readLine { $0.contains("PIXEL-OK: tenant read-back") } ?? ""
    #expect(
      held.contains(
        "arrived: contact user-1 holds this device's push address (address status Active: its validity, not opt-in); all 1 attribute as sent"
      ),
      "\(held)")
    #expect(held.contains("tenantReadBack"), "the tenant's word, not local processing: \(held)")
    let second = try await rawExchange(
      port: serve.port, Self.registration(device: "PIXEL-BAD", attributes: ["Plan": "gold"]))
    #expect(second.hasPrefix("HTTP/1.1 201"), "\(second)")
    let missing =
      try await serve.process.readLine { $0.contains("PIXEL-BAD: tenant read-back") } ?? ""
    #expect(
      missing.contains(
        "NOT ARRIVED: contact user-1 holds no push address for this device (it holds 1 other push address); processing rejects the whole registration for Plan"
      ), "\(missing)")
    let fields = try await serve.request(
      "GET /api/devices/PIXEL-OK/fields HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(fields.contains(#""verdict" : "heldAsSent""#), "\(fields)")
    let timeline = try await serve.request(
      "GET /api/devices/PIXEL-BAD/registrations HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    #expect(timeline.contains(#""addressFound" : false"#), "\(timeline)")
    let explained = try await serve.request(
      "GET /api/devices/PIXEL-BAD/explain HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(explained.contains("NOT ARRIVED"), "\(explained)")
    #expect(!explained.contains("Processing accepted every registration"), "\(explained)")
    try await serve.stop()
    #expect(tenant.searches.count == 2)
    for text in [stated, held, missing, fields, timeline, explained] {
      #expect(!text.contains(StandInTenant.secret))
    }
  }

  /// `regctl serve` relaying to a stand-in whose address search answers `answer`, the
  /// documented device registering FirstName Ada and Interests sports: its read-back line.
  static func readBackLine(searchAnswer answer: [UInt8]) async throws -> String {
    let tenant = try StandInTenant(.replaySearch(answer))
    defer { tenant.stop() }
    let serve = try await ServeProcess.start([
      "--tenant", try tenant.file(), "--upstream", "http://127.0.0.1:\(tenant.port)",
      "--read-back-after", "1",
    ])
    let device = DocumentedAnswers.searchDeviceID
    let sent = try await rawExchange(
      port: serve.port,
      Self.registration(device: device, attributes: ["FirstName": "Ada", "Interests": "sports"]))
    #expect(sent.hasPrefix("HTTP/1.1 201"), "\(sent)")
    let line = try await serve.process.readLine { $0.contains("\(device): tenant read-back") } ?? ""
    try await serve.stop()
    return line
  }

  @Test("the reference page's own answer, replayed: the device arrived (wrapped identifiers read)")
  func documentedAnswer() async throws {
    let line = try await Self.readBackLine(
      searchAnswer: try DocumentedAnswers.bytes(DocumentedAnswers.addressSearch))
    #expect(line.contains("arrived: contact user-1 holds this device's push address"), "\(line)")
    #expect(line.contains("all 2 attributes as sent"), "\(line)")
    #expect(!line.contains("NOT ARRIVED"), "\(line)")
  }

  @Test("an answer whose address keys RegScope cannot read: not read, never NOT ARRIVED")
  func unreadableAnswer() async throws {
    let documented = String(
      decoding: try DocumentedAnswers.bytes(DocumentedAnswers.addressSearch), as: UTF8.self)
    let odd = documented.replacingOccurrences(of: #""addressKey": {"#, with: #""addressKey": [{"#)
      .replacingOccurrences(
        of: #""value": "5C5A1B2E-7E4F-4D1C-9B0A-3F2E1D0C9B8A"\#n      },"#,
        with: #""value": "5C5A1B2E-7E4F-4D1C-9B0A-3F2E1D0C9B8A"\#n      }],"#
      )
      .replacingOccurrences(
        of: #""value": "ada@example.com"\#n      },"#,
        with: #""value": "ada@example.com"\#n      }],"#)
    #expect(odd != documented)
    let line = try await Self.readBackLine(searchAnswer: Array(odd.utf8))
    #expect(line.contains("not read: the tenant answered for contact user-1"), "\(line)")
    #expect(line.contains("addressKey [{"), "an excerpt of what came: \(line)")
    #expect(!line.contains("NOT ARRIVED") && !line.contains("not there"), "\(line)")
  }
}

/// `regctl qa` with `expect: arrived` through the stand-in tenant (#46): the step passes on
/// the tenant's read-back, the report carries it as evidence; the plan is refused at start
/// when the tenant cannot be asked.
@Suite("regctl qa: expect arrived, through the stand-in tenant", .timeLimit(.minutes(10)))
struct QAArrivedBinaryTests {
  static func plan() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("arrival-\(UUID().uuidString).yaml").path
    try Data(
      """
      name: arrival
      steps:
        - expect: registration
          timeout: 2m
        - expect: arrived
          timeout: 2m
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("the step passes on the tenant's read-back; the report holds it as evidence")
  func passes() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("arrival-\(UUID().uuidString).md").path
    let process = try InteractiveProcess(
      try regctlURL(),
      [
        "qa", try Self.plan(), "--yes", "--app-id", "app", "--port", "0", "--tenant",
        try tenant.file(), "--upstream", "http://127.0.0.1:\(tenant.port)", "--read-back-after",
        "1", "--report", report,
      ], environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    let line = try await process.readLine { $0.contains("point the app at") } ?? ""
    let port = Int(line.split(separator: ":").last ?? "") ?? 0
    let answer = try await rawExchange(
      port: port,
      ReadBackBinaryTests.registration(device: "PIXEL-QA", attributes: ["FirstName": "Ada"]))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    let status = try await process.finish()
    let text = try String(contentsOfFile: report, encoding: .utf8)
    #expect(status == 0, "\(text)")
    #expect(
      text.contains("| 2 | expect: the tenant holds what the app sent (did it arrive?) | pass |"))
    #expect(text.contains("## The tenant: did it arrive?"), "\(text)")
    #expect(text.contains("all 1 attribute as sent"))
    #expect(!text.contains(StandInTenant.secret))
  }

  @Test("without --upstream the plan is refused at start, exit 2, saying what it needs")
  func refused() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let run = try await runProcess(
      try regctlURL(),
      [
        "qa", try Self.plan(), "--yes", "--app-id", "app", "--port", "0", "--tenant",
        try tenant.file(),
      ], environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(
        "step 2 (expect: arrived) asks the tenant whether the registration arrived: start with --tenant FILE and --upstream URL"
      ), "\(run.stderr)")
  }
}

/// A receiver with `--tenant` refuses a typed table (#46): it would stand in for the tenant's
/// silently, and lose the S5 causes the tenant's table gives.
@Suite("PUT /api/demographics on a receiver with --tenant", .timeLimit(.minutes(10)))
struct TenantTableKeptTests {
  @Test("409 with where to change it; the tenant's table stays in use")
  func refused() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let serve = try await ServeProcess.start(["--tenant", try tenant.file()])
    let body = #"{"attributes":["FirstName","Plan"]}"#
    let answer = try await serve.request(
      "PUT /api/demographics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ServeProcess.token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        + body)
    #expect(answer.hasPrefix("HTTP/1.1 409"), "\(answer)")
    #expect(answer.contains("change them in Contact Builder, then POST /api/tenant/refresh"))
    let stats = try await serve.request(
      "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    try await serve.stop()
    #expect(stats.contains(#""Interests""#) && !stats.contains(#""Plan""#), "\(stats)")
  }
}
