import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// A registration body as a device would send it.
func body(
  device: String = "DEVICE-A", key: String? = nil, token deviceToken: String? = nil,
  attributes: [String: String] = [:], platform: String = "iOS", push: Bool? = true,
  app: String = appID
) -> [UInt8] {
  var payload = RegistrationPayload()
  payload.deviceID = device
  payload.etAppId = app
  payload.platform = platform
  payload.subscriberKey = key
  payload.deviceToken = deviceToken
  payload.pushEnabled = push
  payload.attributes = attributes.sorted { $0.key < $1.key }.map {
    .init(key: $0.key, value: $0.value)
  }
  payload.tags = ["ALL", "IOS"]
  return payload.encodedBytes()
}

struct ServerHarness {
  var core: EngagementServerCore
  var now = Instant.zero
  var events: [ServerEvent] = []

  init(delay: Double = 300, defined: Set<String>? = nil) {
    core = EngagementServerCore(
      settings: ServerSettings(
        appID: appID, accessToken: token, processingDelay: delay, definedAttributes: defined))
  }

  @discardableResult
  mutating func post(_ body: [UInt8], auth: String? = "Bearer \(token)") -> ServerAnswer {
    let (answer, changes) = core.receive(authorization: auth, body: body, now: now)
    events += changes.events
    return answer
  }

  mutating func advance(by seconds: Double) {
    now = now + seconds
    events += core.processDue(now: now).events
  }

  var stats: ServerStats { core.stats() }
}

extension ServerAnswer {
  var status: Int? {
    if case .respond(let status, _, _) = self { return status }
    return nil
  }
  var json: [String: Any]? {
    guard case .respond(_, let body, _) = self else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
  }
}

@Suite("S1 receiving")
struct ReceivingTests {
  @Test("S1 201 at once for a good registration")
  func accepted() {
    var h = ServerHarness()
    let answer = h.post(body())
    #expect(answer.status == 201)
    #expect(answer.json?["registrationId"] as? Int == 1)
    #expect(h.stats.pending == 1)
  }

  @Test("S1 the 201's body: processAt as Swift writes the number, received, the id, nothing else")
  func acceptedBodyBytes() {
    for (seconds, id) in [(1_795_727_205.437_180_5, 1), (300.0, 42), (0.1, 9_999_999)] {
      let registration = ServerRegistration(
        id: id, receivedAt: Instant(0), processAt: Instant(seconds), status: .received,
        payload: RegistrationPayload())
      let expected = #"{"processAt":\#(seconds),"received":true,"registrationId":\#(id)}"#
      #expect(
        String(decoding: EngagementServerCore.acceptedBody(registration), as: UTF8.self) == expected
      )
    }
    var h = ServerHarness()
    h.now = Instant(12.5)
    #expect(h.post(body()).json?["processAt"] as? Double == 312.5)
  }

  @Test("S1 401 when the bearer token is absent or wrong; nothing is stored")
  func unauthorized() {
    var h = ServerHarness()
    #expect(h.post(body(), auth: nil).status == 401)
    #expect(h.post(body(), auth: "Bearer nope").status == 401)
    #expect(h.post(body(), auth: token).status == 401)
    #expect(h.post(body(), auth: nil).json?["message"] as? String != nil)
    #expect(h.stats.received == 0)
  }

  @Test("S1 400 naming what is wrong: not JSON, wrong type, a required field, unknown app")
  func badRequests() {
    var h = ServerHarness()
    let notJSON = h.post(Array("not json".utf8))
    #expect(notJSON.status == 400)
    #expect(notJSON.json?["error"] as? String == "invalidBody")
    let wrongType = h.post(Array(#"{"deviceID": 7, "etAppId": "x", "platform": "iOS"}"#.utf8))
    #expect(wrongType.status == 400)
    #expect((wrongType.json?["message"] as? String)?.contains("deviceID") == true)
    for field in ["deviceID", "etAppId", "platform"] {
      var object: [String: Any] = ["deviceID": "D", "etAppId": appID, "platform": "iOS"]
      object[field] = nil
      let data = try! JSONSerialization.data(withJSONObject: object)
      let answer = h.post(Array(data))
      #expect(answer.status == 400)
      #expect(answer.json?["field"] as? String == field)
    }
    let unknownApp = h.post(body(app: "someone-else"))
    #expect(unknownApp.status == 400)
    #expect(unknownApp.json?["field"] as? String == "etAppId")
    #expect(h.stats.received == 0)
  }

  @Test("S1 the seed 000 example is a valid body (R6.4), raw TAB in etAppId and all")
  func seedExample() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("Fixtures/seed000-registration.json")
    var h = ServerHarness()
    #expect(h.post(Array(try Data(contentsOf: url))).status == 201)
    h.advance(by: 300)
    #expect(
      h.core.devices["1EB8C21D-CA72-41AC-930D-CEC9A311D699"]?.contactKey == "contactkey@example.com"
    )
  }
}

@Suite("S2-S6 processing")
struct ProcessingTests {
  @Test("S2 received, not processed, until the processing delay has passed")
  func processingDelay() {
    var h = ServerHarness(delay: 300)
    h.post(body(key: "user-1"))
    h.advance(by: 299.999)
    #expect(h.stats.pending == 1 && h.core.devices.isEmpty)
    h.advance(by: 0.001)
    #expect(h.stats.pending == 0 && h.stats.processed == 1)
    #expect(h.core.devices["DEVICE-A"]?.contactKey == "user-1")
  }

  @Test("S3 without a key: a made-up GUID contact, never sent back; reused on the next one")
  func madeUpContact() {
    var h = ServerHarness(delay: 0)
    let answer = h.post(body())
    #expect(answer.json?.keys.contains("subscriberKey") == false)
    h.advance(by: 0)
    let key = h.core.devices["DEVICE-A"]?.contactKey
    #expect(key?.count == 36)
    #expect(h.core.contacts[key ?? ""]?.madeUp == true)
    h.post(body())
    h.advance(by: 0)
    #expect(h.core.devices["DEVICE-A"]?.contactKey == key)
    #expect(h.stats.distinctContacts == 1)
  }

  @Test("S3 without a key, a new device id with a known token reuses that token's contact")
  func reuseByToken() {
    var h = ServerHarness(delay: 0)
    h.post(body(device: "OLD", token: "tok-1"))
    h.advance(by: 0)
    h.post(body(device: "NEW", token: "tok-1"))
    h.advance(by: 0)
    #expect(h.core.devices["NEW"]?.contactKey == h.core.devices["OLD"]?.contactKey)
    #expect(h.stats.distinctContacts == 1)
  }

  @Test("R8.2 via S3/S4: anonymous then known gives 2 distinct contacts and 1 orphan (the made-up)")
  func anonymousThenKnown() {
    var h = ServerHarness(delay: 0)
    h.post(body())
    h.advance(by: 0)
    h.post(body(key: "user.a@example.com"))
    h.advance(by: 0)
    #expect(h.stats.distinctContacts == 2)
    #expect(h.stats.orphanedContacts == 1)
    let orphan = h.core.contacts.values.first { $0.orphanedAt != nil }
    #expect(orphan?.madeUp == true)
    #expect(h.events.contains { $0.type == "orphaned" })
  }

  @Test("R8.3 via S4: shared device A then B gives 2 distinct contacts and 1 orphan (A)")
  func sharedDevice() {
    var h = ServerHarness(delay: 0)
    h.post(body(key: "user.a@example.com"))
    h.advance(by: 0)
    h.post(body(key: "user.b@example.com"))
    h.advance(by: 0)
    #expect(h.stats.distinctContacts == 2)
    #expect(h.stats.orphanedContacts == 1)
    #expect(h.core.contacts["user.a@example.com"]?.orphanedAt != nil)
    // A stays a contact for billing; when A logs in again it has a device once more.
    h.post(body(key: "user.a@example.com"))
    h.advance(by: 0)
    #expect(h.stats.orphanedContacts == 1)
    #expect(h.core.contacts["user.a@example.com"]?.orphanedAt == nil)
    #expect(h.core.contacts["user.b@example.com"]?.orphanedAt != nil)
  }

  @Test("S4 A keeps its other device: switching one device to B does not orphan A")
  func notOrphanedWithAnotherDevice() {
    var h = ServerHarness(delay: 0)
    h.post(body(device: "PHONE", key: "user.a@example.com"))
    h.post(body(device: "TABLET", key: "user.a@example.com"))
    h.advance(by: 0)
    h.post(body(device: "TABLET", key: "user.b@example.com"))
    h.advance(by: 0)
    #expect(h.stats.orphanedContacts == 0)
    #expect(h.core.deviceCount(of: "user.a@example.com") == 1)
  }

  @Test("S5 one undefined attribute rejects the whole registration after the 201; device unchanged")
  func undefinedAttribute() {
    var h = ServerHarness(delay: 0, defined: ["CODE"])
    h.post(body(key: "k", attributes: ["CODE": "FREE99"]))
    h.advance(by: 0)
    #expect(h.core.devices["DEVICE-A"]?.attributes == ["CODE": "FREE99"])
    let answer = h.post(body(key: "other", attributes: ["CODE": "X", "Favorite": "blue"]))
    #expect(answer.status == 201)
    h.advance(by: 0)
    #expect(h.stats.rejected == 1)
    let rejected = h.core.registrations.values.last
    #expect(rejected?.status == .rejected)
    #expect(rejected?.reason?.contains("Favorite") == true)
    #expect(h.core.devices["DEVICE-A"]?.attributes == ["CODE": "FREE99"])
    #expect(h.core.devices["DEVICE-A"]?.contactKey == "k")
  }

  @Test("S5 a fresh server (no table) accepts every attribute")
  func noTableAcceptsAll() {
    var h = ServerHarness(delay: 0, defined: nil)
    h.post(body(attributes: ["Anything": "goes"]))
    h.advance(by: 0)
    #expect(h.stats.processed == 1)
  }

  @Test("S6 push_Enabled omitted counts as enabled")
  func pushDefault() {
    var h = ServerHarness(delay: 0)
    h.post(body(push: nil))
    h.advance(by: 0)
    #expect(h.core.devices["DEVICE-A"]?.pushEnabled == true)
    h.post(body(push: false))
    h.advance(by: 0)
    #expect(h.core.devices["DEVICE-A"]?.pushEnabled == false)
  }

  @Test(
    "S6 malformed: a subscriberKey over 100, a platform neither iOS nor Android",
    arguments: [
      (String(repeating: "k", count: 101), "iOS", "subscriberKey"),
      ("user", "Windows", "platform"),
    ])
  func malformed(key: String, platform: String, named: String) {
    var h = ServerHarness(delay: 0)
    h.post(body(key: "first"))
    h.advance(by: 0)
    #expect(h.post(body(key: key, platform: platform)).status == 201)
    h.advance(by: 0)
    let device = h.core.devices["DEVICE-A"]
    #expect(device?.active == false)
    #expect(device?.inactiveReason?.contains(named) == true)
    #expect(device?.contactKey == "first")
    #expect(h.stats.rejected == 1)
  }
}

@Suite("S7 faults")
struct FaultTests {
  @Test("S7 a status for the next N requests, then back to normal")
  func statusTimes() {
    var h = ServerHarness()
    h.core.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 2))
    #expect(h.post(body()).status == 503)
    #expect(h.post(body()).status == 503)
    #expect(h.post(body()).status == 201)
  }

  @Test("S7 429 with Retry-After for a while, then back to normal")
  func retryAfterForAWhile() {
    var h = ServerHarness()
    h.core.setFault(ServerFault(kind: .status(429, retryAfter: 120), until: Instant(600)))
    guard case .respond(429, _, let retryAfter) = h.post(body()) else {
      Issue.record("expected 429")
      return
    }
    #expect(retryAfter == 120)
    h.now = Instant(600)
    #expect(h.post(body()).status == 201)
  }

  @Test("S7 hang, drop and down answer as such")
  func modes() {
    var h = ServerHarness()
    h.core.setFault(ServerFault(kind: .hang, remaining: 1))
    #expect(h.post(body()) == .hang)
    h.core.setFault(ServerFault(kind: .drop, remaining: 1))
    #expect(h.post(body()) == .drop)
    h.core.setFault(ServerFault(kind: .down))
    #expect(h.core.isDown(now: h.now))
    #expect(h.post(body()) == .refuse)
    h.core.setFault(nil)
    #expect(h.post(body()).status == 201)
  }

  @Test("fault requests are validated, naming the field")
  func faultParsing() throws {
    let fault = try FaultRequest.parse(
      Array(#"{"status": 429, "retryAfter": 60, "times": 2}"#.utf8), now: .zero)
    #expect(fault == ServerFault(kind: .status(429, retryAfter: 60), remaining: 2))
    for (json, field) in [
      (#"{"status": 200}"#, "status"), (#"{"status": 503, "times": 0}"#, "times"),
      (#"{"mode": "down"}"#, "seconds"), (#"{"mode": "explode"}"#, "mode"),
      (#"{"status": "503"}"#, "status"), (#"[]"#, "body"),
    ] {
      #expect(throws: FaultRequest.Invalid.self) {
        try FaultRequest.parse(Array(json.utf8), now: .zero)
      }
      do {
        _ = try FaultRequest.parse(Array(json.utf8), now: .zero)
      } catch {
        #expect(error.field == field, "\(json)")
      }
    }
  }

  @Test("GUIDs are seeded: the same seed makes the same keys")
  func guids() {
    var a = GUIDGenerator(seed: 1)
    var b = GUIDGenerator(seed: 1)
    let first = a.next()
    #expect(first == b.next())
    #expect(first != a.next())
    #expect(
      first.range(
        of: #"^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$"#,
        options: .regularExpression) != nil)
  }
}
