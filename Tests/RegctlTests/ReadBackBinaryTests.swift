import Foundation
import TestSupport
import Testing

/// "Did it arrive?" through the real binary (#46): `regctl serve` relaying to the stand-in
/// tenant (its device route files a registration as processing does, S5 included) and reading
/// back through its address search a second after each 2xx (`--read-back-after 1`).
@Suite("the read-back through regctl serve and the stand-in tenant", .timeLimit(.minutes(2)))
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
        "contact user-1 holds this device's push address (status Active); all 1 attribute as sent"),
      "\(held)")
    let second = try await rawExchange(
      port: serve.port, Self.registration(device: "PIXEL-BAD", attributes: ["Plan": "gold"]))
    #expect(second.hasPrefix("HTTP/1.1 201"), "\(second)")
    let missing =
      try await serve.process.readLine { $0.contains("PIXEL-BAD: tenant read-back") } ?? ""
    #expect(
      missing.contains(
        "not arrived: contact user-1 holds no push address for this device (it holds 1 other push address); processing rejects the whole registration for Plan"
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
    #expect(explained.contains("not arrived"), "\(explained)")
    #expect(!explained.contains("Processing accepted every registration"), "\(explained)")
    try await serve.stop()
    #expect(tenant.searches.count == 2)
    for text in [stated, held, missing, fields, timeline, explained] {
      #expect(!text.contains(StandInTenant.secret))
    }
  }
}
