import Clocks
import EngagementHTTP
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionHTTP
import Synchronization
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A local server on loopback and an engine that talks to it over real HTTP, sharing one
/// virtual clock so processing happens at the right virtual moment.
struct LoopbackRig {
  let clock: VirtualClock
  let server: LocalEngagementServer
  let front: EngagementHTTPServer
  let engine: RegistrationEngine
  let baseURL: URL

  static func start(
    engineToken: String = token, timeout: Double = 5, hangSeconds: Double = 30,
    delay: Double = 300
  ) async throws -> LoopbackRig {
    let clock = VirtualClock()
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token, processingDelay: delay),
      store: ServerStore.inMemory(), clock: clock)
    let front = try HTTPNetwork.front(for: server, options: ReceiverOptions(port: 0)) {
      $0.hangSeconds = hangSeconds
    }.front
    let port = try await front.start()
    let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(appID).setAccessToken(engineToken)
      .setMarketingCloudServerUrl(baseURL.absoluteString).setRequestTimeout(timeout).build()
    let engine = RegistrationEngine(
      configuration: configuration, store: try RegistrationStore.inMemory(),
      transport: HTTPTransport(), clock: clock, environment: .demo(.iOS),
      makeDeviceID: { "LOOPBACK-DEVICE" })
    try await engine.launch()
    return LoopbackRig(clock: clock, server: server, front: front, engine: engine, baseURL: baseURL)
  }

  func advance(to seconds: Double) async throws {
    try await engine.advance(clock, to: Instant(seconds))
    await server.processDue()
  }

  func retry() async throws -> RetryState? { try await engine.snapshot().state.scheduler.retry }

  func get(_ path: String) async throws -> (Int, [String: Any]) {
    try await request("GET", path)
  }

  /// Sends the app's token unless `headers` say otherwise: the control routes need it.
  func request(
    _ method: String, _ path: String, body: Data? = nil,
    headers: [String: String] = ["Authorization": "Bearer \(token)"]
  )
    async throws -> (Int, [String: Any])
  {
    let url = try #require(URL(string: path, relativeTo: baseURL))
    var request = URLRequest(url: url)
    request.timeoutInterval = 20
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? -1
    let json = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    return (status, json)
  }

  /// A POST over a raw socket: a body the server refuses before reading it, which a URL client
  /// may keep trying to send.
  func rawPost(_ path: String, body: [UInt8], authorized: Bool = true) async throws -> String {
    let port = try #require(baseURL.port)
    let authorization = authorized ? "Authorization: Bearer \(token)\r\n" : ""
    let head =
      "POST /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Content-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    return try await rawExchange(port: port, Array(head.utf8) + body)
  }

  func stop() async {
    await engine.shutDown()
    await front.stop()
  }
}

@Suite("S1-S7 over loopback HTTP", .serialized, .timeLimit(.minutes(10)))
struct HTTPEndToEndTests {
  @Test("201 at once, processed after the delay, visible in /api/devices and /api/stats")
  func receivedThenProcessed() async throws {
    let rig = try await LoopbackRig.start()
    try await rig.advance(to: 0)
    #expect(try await rig.engine.history().first?.status == 201)
    var (_, devices) = try await rig.get("api/devices")
    // Listed at once, as waiting for processing (S2), not yet a device of the server's.
    let waiting = devices["devices"] as? [[String: Any]]
    #expect(waiting?.count == 1)
    #expect(waiting?.first?["active"] as? Bool == false)
    #expect(waiting?.first?["inactiveReason"] as? String == "waiting for processing (S2)")
    #expect(try await rig.get("api/stats").1["pending"] as? Int == 1)
    try await rig.advance(to: 300)
    (_, devices) = try await rig.get("api/devices")
    #expect((devices["devices"] as? [Any])?.count == 1)
    let device = (devices["devices"] as? [[String: Any]])?.first
    #expect(device?["deviceID"] as? String == "LOOPBACK-DEVICE")
    #expect(device?["active"] as? Bool == true)
    let stats = try await rig.get("api/stats").1
    #expect(stats["distinctContacts"] as? Int == 1)
    #expect(stats["madeUpContacts"] as? Int == 1)
    let contacts = try await rig.get("api/contacts").1["contacts"] as? [[String: Any]]
    #expect(contacts?.first?["madeUp"] as? Bool == true)
    #expect(contacts?.first?["devices"] as? [String] == ["LOOPBACK-DEVICE"])
    await rig.stop()
  }

  @Test("R4.5 a wrong token: 401, retried, and marked as needing a fix")
  func wrongToken() async throws {
    let rig = try await LoopbackRig.start(engineToken: "not-the-token-0123")
    try await rig.advance(to: 60)
    let retry = try await rig.retry()
    #expect(retry?.lastStatus == 401)
    #expect(retry?.needsFix == true)
    #expect(retry?.failures == 2)
    await rig.stop()
  }

  @Test("S7 503 three times: the backoff ladder, then recovery resets it (R4.4)")
  func serviceUnavailable() async throws {
    let rig = try await LoopbackRig.start()
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 3))
    try await rig.advance(to: 180)  // 0, 60, 180 fail
    #expect(try await rig.retry()?.failures == 3)
    #expect(try await rig.retry()?.lastStatus == 503)
    try await rig.advance(to: 420)
    #expect(try await rig.retry() == nil)
    #expect(try await rig.engine.history().first?.status == 201)
    await rig.stop()
  }

  @Test("S7, R4.2 429 with Retry-After is honoured")
  func tooManyRequests() async throws {
    let rig = try await LoopbackRig.start()
    await rig.server.setFault(ServerFault(kind: .status(429, retryAfter: 900), remaining: 1))
    try await rig.advance(to: 0)
    #expect(try await rig.retry()?.nextAttemptAt == Instant(900))
    await rig.stop()
  }

  @Test("S7 a hang past the client's time-out is a failure, retried")
  func hang() async throws {
    let rig = try await LoopbackRig.start(timeout: 0.5, hangSeconds: 30)
    await rig.server.setFault(ServerFault(kind: .hang, remaining: 1))
    try await rig.advance(to: 0)
    let retry = try await rig.retry()
    #expect(retry?.lastStatus == nil)
    #expect(retry?.lastError?.contains("timed out") == true)
    await rig.stop()
  }

  @Test("S7 down: connection refused; up again on the same port: the retry succeeds")
  func downAndUp() async throws {
    let rig = try await LoopbackRig.start()
    let port = rig.front.port
    await rig.server.setFault(ServerFault(kind: .down))
    await rig.front.waitUntil(listening: false)
    try await rig.advance(to: 0)
    let retry = try await rig.retry()
    #expect(retry?.lastStatus == nil)
    #expect(retry?.lastError == "connection refused")
    await rig.server.setFault(nil)
    await rig.front.waitUntil(listening: true)
    #expect(rig.front.port == port)
    try await rig.advance(to: 60)
    #expect(try await rig.retry() == nil)
    await rig.stop()
  }

  @Test("S7 a dropped connection is a failure without a status")
  func drop() async throws {
    let rig = try await LoopbackRig.start()
    await rig.server.setFault(ServerFault(kind: .drop, remaining: 1))
    try await rig.advance(to: 0)
    let retry = try await rig.retry()
    #expect(retry?.lastStatus == nil)
    #expect(retry?.lastError?.isEmpty == false, "\(String(describing: retry))")
    await rig.stop()
  }

  @Test("the faults API: inject, see it in stats, recover with DELETE")
  func faultsAPI() async throws {
    let rig = try await LoopbackRig.start()
    let (status, answer) = try await rig.request(
      "POST", "api/faults", body: Data(#"{"status": 503, "times": 2}"#.utf8))
    #expect(status == 200)
    #expect((answer["fault"] as? String)?.contains("503") == true)
    #expect((try await rig.get("api/stats").1["fault"] as? String)?.contains("503") == true)
    let (badStatus, bad) = try await rig.request(
      "POST", "api/faults", body: Data(#"{"mode": "down"}"#.utf8))
    #expect(badStatus == 400 && bad["field"] as? String == "seconds")
    #expect(try await rig.request("DELETE", "api/faults").0 == 200)
    #expect(try await rig.get("api/stats").1["fault"] == nil)
    await rig.stop()
  }

  @Test("S5 demographics over the API: one undefined attribute rejects the registration")
  func demographicsAPI() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    let (status, _) = try await rig.request(
      "PUT", "api/demographics", body: Data(#"{"attributes": ["CODE"]}"#.utf8))
    #expect(status == 200)
    try await rig.engine.apply(.setAttribute(key: "Favorite", value: "blue"))
    try await rig.advance(to: 0)
    let registrations =
      try await rig.get("api/registrations").1["registrations"] as? [[String: Any]]
    #expect(registrations?.first?["status"] as? String == "rejected")
    #expect((registrations?.first?["reason"] as? String)?.contains("Favorite") == true)
    #expect(try await rig.engine.history().first?.status == 201)
    await rig.stop()
  }

  @Test("bad input gets a JSON 4xx naming the problem, and nothing stored is lost")
  func badInput() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    try await rig.advance(to: 0)
    let before = try await rig.get("api/stats").1["received"] as? Int
    let auth = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
    let (notJSON, notJSONBody) = try await rig.request(
      "POST", "device/v1/registration", body: Data("<xml/>".utf8), headers: auth)
    #expect(notJSON == 400 && notJSONBody["error"] as? String == "invalidBody")
    let (wrongType, wrongTypeBody) = try await rig.request(
      "POST", "device/v1/registration",
      body: Data(#"{"deviceID": "D", "etAppId": "x", "platform": "iOS", "tags": "sports"}"#.utf8),
      headers: auth)
    #expect(wrongType == 400)
    #expect((wrongTypeBody["message"] as? String)?.contains("tags") == true)
    let tooLarge = try await rig.rawPost(
      "device/v1/registration", body: [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20))
    #expect(tooLarge.hasPrefix("HTTP/1.1 413") && tooLarge.contains("bodyTooLarge"))
    let (unknown, unknownBody) = try await rig.get("api/nothing-here")
    #expect(unknown == 404)
    #expect((unknownBody["message"] as? String)?.contains("/api/nothing-here") == true)
    let (badLimit, _) = try await rig.get("api/registrations?limit=abc")
    #expect(badLimit == 400)
    let (emptyBefore, emptyBeforeBody) = try await rig.get("api/contacts?before=")
    #expect(emptyBefore == 400 && emptyBeforeBody["field"] as? String == "before")
    let (unknownCursor, unknownCursorBody) = try await rig.get("api/devices?before=nobody")
    #expect(unknownCursor == 404 && unknownCursorBody["error"] as? String == "unknownCursor")
    #expect(try await rig.get("api/registrations?before=abc").0 == 400)
    let (badDemographics, _) = try await rig.request(
      "PUT", "api/demographics", body: Data(#"{"attributes": 5}"#.utf8))
    #expect(badDemographics == 400)
    let stats = try await rig.get("api/stats").1
    #expect(stats["received"] as? Int == before)
    #expect(stats["devices"] as? Int == 1)
    await rig.stop()
  }

  @Test("the seed 000 example posted with curl is accepted, then processed")
  func curlSeedExample() async throws {
    let rig = try await LoopbackRig.start(delay: 300)
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/seed000-registration.json")
    let curl = try await runTool(
      "curl",
      [
        "-s", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
        "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
        "--data-binary", "@\(fixture.path)",
        rig.baseURL.appendingPathComponent("device/v1/registration").absoluteString,
      ])
    #expect(curl.stdout == "201", "\(curl.stderr)")
    rig.clock.advance(to: Instant(300))
    await rig.server.processDue()
    let devices = try await rig.get("api/devices").1["devices"] as? [[String: Any]]
    let device = devices?.first {
      $0["deviceID"] as? String == "1EB8C21D-CA72-41AC-930D-CEC9A311D699"
    }
    #expect(device?["contactKey"] as? String == "contactkey@example.com")
    #expect(device?["active"] as? Bool == true)
    await rig.stop()
  }

  @Test("GET /openapi.json describes every route and is a valid OpenAPI 3 document")
  func openAPI() async throws {
    let rig = try await LoopbackRig.start()
    let (status, document) = try await rig.get("openapi.json")
    #expect(status == 200)
    let paths = (document["paths"] as? [String: Any])?.keys.sorted()
    #expect(
      paths == [
        "/api/contacts", "/api/demographics", "/api/devices", "/api/devices/{deviceID}/bundle",
        "/api/devices/{deviceID}/explain",
        "/api/devices/{deviceID}/fields", "/api/devices/{deviceID}/har",
        "/api/devices/{deviceID}/registrations", "/api/faults", "/api/registrations", "/api/stats",
        "/api/tenant/refresh", "/device/v1/event/analytic", "/device/v1/location/{appId}/fence",
        "/device/v1/location/{appId}/proximity", "/device/v1/registration",
        "/device/v1/{appId}/message", "/device/v1/{appId}/sync/{deviceId}",
        "/devicestatistics/v1/analytic", "/devicestatistics/v1/event", "/openapi.json",
        "/platform/messaging/mobileapp/v1/events/billing",
        "/platform/messaging/mobileapp/v1/events/engagement",
        "/platform/messaging/mobileapp/v1/events/register",
      ])
    // It names this server's app, so schema-driven clients send registrations it accepts.
    let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
    let registration = (schemas?["Registration"] as? [String: Any])?["properties"] as? [String: Any]
    #expect((registration?["etAppId"] as? [String: Any])?["enum"] as? [String] == [appID])
    #expect(((schemas?["Fault"] as? [String: Any])?["oneOf"] as? [Any])?.count == 3)
    // The finding codes are FindingCode's, every one.
    let finding = (schemas?["Finding"] as? [String: Any])?["properties"] as? [String: Any]
    #expect(
      (finding?["code"] as? [String: Any])?["enum"] as? [String]
        == FindingCode.allCases.map(\.rawValue))
    // The reference validator, from PyPI (.ci/run installs it).
    let validator = try await runTool(
      "python3",
      [
        "-c",
        "import json,sys,urllib.request; from openapi_spec_validator import validate; validate(json.load(urllib.request.urlopen(sys.argv[1], timeout=20)))",
        rig.baseURL.appendingPathComponent("openapi.json").absoluteString,
      ])
    #expect(validator.status == 0, "\(validator.stderr)")
    await rig.stop()
  }

  @Test("the SDK's device routes answer 405 with Allow for a wrong method, as the API does")
  func sdkRoutes405() async throws {
    let rig = try await LoopbackRig.start()
    for (method, path, allow) in [
      ("GET", "device/v1/app/sync/D1", "POST"), ("DELETE", "device/v1/app/message", "GET, PATCH"),
      ("GET", "devicestatistics/v1/event", "POST"), ("POST", "api/devices/D1/registrations", "GET"),
    ] {
      let answer = try await rawExchange(
        port: rig.baseURL.port ?? 0,
        Array("\(method) /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
      #expect(answer.hasPrefix("HTTP/1.1 405"), "\(method) \(path): \(answer.prefix(80))")
      #expect(answer.lowercased().contains("allow: \(allow.lowercased())"), "\(method) \(path)")
    }
    await rig.stop()
  }

  @Test("the server binds to 127.0.0.1 by default")
  func loopbackOnly() async throws {
    #expect(EngagementHTTPServer.Options().host == "127.0.0.1")
    let rig = try await LoopbackRig.start()
    #expect(rig.baseURL.host == "127.0.0.1")
    await rig.stop()
  }
}
