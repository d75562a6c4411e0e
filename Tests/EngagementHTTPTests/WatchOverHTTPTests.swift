import Clocks
import EngagementHTTP
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionHTTP
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// The local server on loopback with real-shaped clients: engines running the shipped SDKs'
/// profiles, and raw requests written byte for byte as SDK-FACTS.md describes them.
/// The shipped SDKs refuse an app id that is not a UUID and a short token.

@Suite("watching a real app over loopback", .serialized, .timeLimit(.minutes(10)))
struct WatchOverHTTPTests {
  struct Rig {
    let clock = VirtualClock()
    let server: LocalEngagementServer
    let front: EngagementHTTPServer
    let port: Int

    init(
      upstream: String? = nil, host: String = "127.0.0.1", relayDeadline: Duration? = nil,
      limits: ConnectionLimits = ConnectionLimits(),
      capture: (@Sendable (CapturedExchange) -> Void)? = nil
    ) async throws {
      server = try LocalEngagementServer(
        settings: ServerSettings(appID: watchAppID, accessToken: watchToken, processingDelay: 300),
        store: ServerStore.inMemory(), clock: clock)
      front = try HTTPNetwork.front(
        for: server, options: ReceiverOptions(port: 0, upstream: upstream, host: host)
      ) { options in
        options.limits = limits
        options.capture = capture
        if let relayDeadline { options.upstream?.deadline = relayDeadline }
      }.front
      port = try await front.start()
    }

    func engine(
      _ profile: SDKProfile, platform: Platform, device: String,
      store: RegistrationStore? = nil
    ) throws -> RegistrationEngine {
      let configuration = try RegistrationConfigurationBuilder()
        .setApplicationId(watchAppID).setAccessToken(watchToken).setPlatform(platform)
        .setSDKProfile(profile).setMarketingCloudServerUrl("http://127.0.0.1:\(port)").build()
      return RegistrationEngine(
        configuration: configuration, store: try store ?? RegistrationStore.inMemory(),
        transport: HTTPTransport(), clock: clock,
        environment: .demo(platform, profile: profile), makeDeviceID: { device })
    }

    /// One request, exactly these bytes: (status, headers lower-cased, body).
    func raw(_ method: String, _ path: String, headers: [(String, String)], body: String = "")
      async throws -> (Int, [String: String], String)
    {
      var head = "\(method) \(path) HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      head += "content-length: \(body.utf8.count)\r\n\r\n"
      let text = try await rawExchange(port: port, Array((head + body).utf8))
      let parts = text.components(separatedBy: "\r\n\r\n")
      let lines = parts[0].components(separatedBy: "\r\n")
      let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? -1
      var fields: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
      return (status, fields, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The Android SDK's headers: lower-case names (SDK-FACTS).
    static let android: [(String, String)] = [
      ("accept", "application/json"), ("content-type", "application/json; charset=utf-8"),
      (
        "user-agent",
        "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0"
      ),
      ("authorization", "Bearer \(watchToken)"), ("x-sdk-version", "10.0.0"),
    ]

    /// The device as `/api/devices` lists it: at once, before processing (S2) reaches it.
    func device(_ id: String) async throws -> [String: Any] {
      let (status, _, body) = try await raw("GET", "/api/devices", headers: [])
      #expect(status == 200)
      let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
      let devices = object?["devices"] as? [[String: Any]] ?? []
      return try #require(devices.first { $0["deviceID"] as? String == id })
    }

    func stop() async { await front.stop() }
  }

  @Test(
    "an engine running a shipped SDK's profile: recognised, its token sent back, no findings",
    arguments: [("android", "Android"), ("ios", "iOS")])
  func wellBehaved(sdk: String, platformName: String) async throws {
    let rig = try await Rig()
    let (profile, platform): (SDKProfile, Platform) =
      sdk == "android" ? (.android, .android) : (.ios, .iOS)
    let engine = try rig.engine(profile, platform: platform, device: "PROFILE-1")
    try await engine.launch()
    try await engine.advance(rig.clock, to: Instant(1))
    _ = try await engine.apply(.addTag("sports"))
    try await engine.advance(rig.clock, to: Instant(130))
    let device = try await rig.device("PROFILE-1")
    let client = try #require(device["client"] as? [String: Any])
    #expect(client["sdk"] as? String == sdk)
    #expect(client["platform"] as? String == platformName)
    #expect(client["sdkVersion"] as? String == "10.0.0")
    #expect((client["findings"] as? [String: Any])?.isEmpty == true, "\(client)")
    #expect(client["subscriberTokenReturned"] as? Bool == true)
    let (status, _, body) = try await rig.raw(
      "GET", "/api/devices/PROFILE-1/registrations", headers: [])
    #expect(status == 200)
    let timeline = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
    let registrations = timeline?["registrations"] as? [[String: Any]] ?? []
    #expect(registrations.count == 2)
    #expect((registrations.last?["changes"] as? [String]) == ["+ tags sports"])
    #expect((registrations.last?["interval"] as? Double ?? 0) >= 60)
    await engine.shutDown()
    await rig.stop()
  }

  @Test("an Android app that registers a change every 10 s: each may be a background send")
  func hammering() async throws {
    let rig = try await Rig()
    for (second, tag) in [(0.0, "a"), (10, "b"), (20, "c")] {
      rig.clock.advance(to: Instant(second))
      let (status, headers, _) = try await rig.raw(
        "POST", "/device/v1/registration", headers: Rig.android,
        body: sdkBody(device: "HAMMER", app: watchAppID, tags: [tag]))
      #expect(status == 201)
      #expect(headers["x-subscriber-token"]?.hasPrefix("rs-") == true)
    }
    let client = try #require(try await rig.device("HAMMER")["client"] as? [String: Any])
    #expect((client["findings"] as? [String: Int]) == ["backgroundSend": 2])
    #expect(
      (client["severities"] as? [String: Int]) == ["violation": 0, "warning": 0, "note": 2])
    let (_, _, body) = try await rig.raw("GET", "/api/devices/HAMMER/registrations", headers: [])
    #expect(body.contains(#""rule" : "R3.2""#))
    await rig.stop()
  }

  @Test(
    "an iOS app that retries every 2 s after injected 503s: a relaunch once, then crash-looping")
  func retryAtOnce() async throws {
    let rig = try await Rig()
    let (faulted, _, _) = try await rig.raw(
      "POST", "/api/faults", headers: [("Authorization", "Bearer \(watchToken)")],
      body: #"{"status":503,"times":2}"#)
    #expect(faulted == 200)
    let ios: [(String, String)] = [
      ("Accept", "application/json"), ("Content-Type", "application/json"),
      (
        "User-Agent",
        "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0"
      ),
      ("Authorization", "Bearer \(watchToken)"), ("X-SDK-Version", "10.0.0"),
    ]
    let body = sdkBody(device: "IOS-1", platform: "iOS", app: watchAppID)
    let first = try await rig.raw("POST", "/device/v1/registration", headers: ios, body: body)
    #expect(first.0 == 503)
    rig.clock.advance(to: Instant(2))
    let second = try await rig.raw("POST", "/device/v1/registration", headers: ios, body: body)
    #expect(second.0 == 503)
    rig.clock.advance(to: Instant(4))
    let third = try await rig.raw("POST", "/device/v1/registration", headers: ios, body: body)
    #expect(third.0 == 201)
    let client = try #require(try await rig.device("IOS-1")["client"] as? [String: Any])
    #expect(client["sdk"] as? String == "ios")
    #expect((client["findings"] as? [String: Int]) == ["relaunchSend": 1, "retryTooSoon": 1])
    let (_, _, timeline) = try await rig.raw(
      "GET", "/api/devices/IOS-1/registrations", headers: [])
    #expect(timeline.contains("crash-looping") && timeline.contains(#""severity" : "violation""#))
    // The 503s handed out no token; the 201 did, and nothing has come since.
    #expect(client["subscriberTokenReturned"] is NSNull || client["subscriberTokenReturned"] == nil)
    await rig.stop()
  }

  @Test("the SDK's other device routes answer 2xx with JSON, and are counted per device")
  func otherRoutes() async throws {
    let rig = try await Rig()
    _ = try await rig.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: "ROUTES", app: watchAppID))
    let calls: [(String, String, String)] = [
      ("POST", "/device/v1/\(watchAppID)/sync/ROUTES", "{}"),
      ("GET", "/device/v1/\(watchAppID)/message/?deviceid=ROUTES&wm=1", ""),
      // 8.x's form of the inbox query (SDK-FACTS, "Across SDK majors").
      ("GET", "/device/v1/\(watchAppID)/message/?deviceid=ROUTES&messagetype=8&contenttype=2", ""),
      ("PATCH", "/device/v1/\(watchAppID)/message", #"{"messages":[]}"#),
      ("POST", "/device/v1/event/analytic", "[]"),
      ("POST", "/devicestatistics/v1/analytic", "[]"),
      ("POST", "/devicestatistics/v1/event", "[]"),
      (
        "GET", "/device/v1/location/\(watchAppID)/fence/?latitude=1&longitude=2&deviceid=ROUTES", ""
      ),
      (
        "GET",
        "/device/v1/location/\(watchAppID)/proximity/?latitude=1&longitude=2&deviceid=ROUTES", ""
      ),
    ]
    for (method, path, body) in calls {
      let (status, headers, answer) = try await rig.raw(
        method, path, headers: Rig.android, body: body)
      #expect(status == 200, "\(method) \(path)")
      #expect(headers["content-type"] == "application/json", "\(method) \(path)")
      #expect((try? JSONSerialization.jsonObject(with: Data(answer.utf8))) != nil, "\(path)")
    }
    // The Mobile App Messaging SDK beside it, on its own base URL: accepted, counted against
    // the body's deviceId, never judged.
    for event in ["register", "engagement", "billing"] {
      let (status, _, answer) = try await rig.raw(
        "POST", "/platform/messaging/mobileapp/v1/events/\(event)",
        headers: Rig.android + [("x-sfdc-mobile-app-id", "mam-app")],
        body: #"{"eventId":"e1","deviceId":"ROUTES","registrationId":"r1","pushEnabled":true}"#)
      #expect(status == 200 && answer == "{}", "\(event): \(status) \(answer)")
    }
    let client = try #require(try await rig.device("ROUTES")["client"] as? [String: Any])
    let counted = client["otherRoutes"] as? [String: Int] ?? [:]
    #expect(counted["sync"] == 1 && counted["inbox"] == 2 && counted["fences"] == 1, "\(counted)")
    #expect(
      counted["mobileAppMessagingRegistration"] == 1 && counted["mobileAppMessagingBilling"] == 1,
      "\(counted)")
    await rig.stop()
  }

  @Test(
    "--upstream relays bodies and headers unchanged, and the tenant's 201 and 429; faults here answer first"
  )
  func relay() async throws {
    let tenant = try await Rig()
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)/")
    let body = sdkBody(device: "RELAYED", app: watchAppID, tags: ["ALL", "relay"])
    let (status, headers, answer) = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android, body: body)
    #expect(status == 201, "\(answer)")
    #expect(answer.contains(#""received":true"#))
    // The tenant got the very bytes and headers: it read the SDK and kept the body.
    let tenantTimeline = try await tenant.raw(
      "GET", "/api/devices/RELAYED/registrations", headers: [])
    #expect(tenantTimeline.2.contains(#""sdk" : "android""#))
    let tenantDevice = try #require(await tenant.server.watchedDevice("RELAYED"))
    #expect(tenantDevice.registrations.last?.body == body)
    // The tenant's token came back through the relay, and the relay's watch knows it.
    let token = try #require(headers["x-subscriber-token"])
    #expect(await relay.server.watchedDevice("RELAYED")?.subscriberToken == token)
    #expect(tenantDevice.subscriberToken == token)
    // The tenant's 429 and its Retry-After are relayed.
    _ = try await tenant.raw(
      "POST", "/api/faults", headers: [("Authorization", "Bearer \(watchToken)")],
      body: #"{"status":429,"times":1,"retryAfter":120}"#)
    let limited = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android, body: body)
    #expect(limited.0 == 429 && limited.1["retry-after"] == "120")
    // A fault injected at the relay answers before the tenant sees anything.
    _ = try await relay.raw(
      "POST", "/api/faults", headers: [("Authorization", "Bearer \(watchToken)")],
      body: #"{"status":503,"times":2}"#)
    let before = await tenant.server.watchedDevice("RELAYED")?.registrationCount
    let faulted = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android, body: body)
    #expect(faulted.0 == 503)
    #expect(await tenant.server.watchedDevice("RELAYED")?.registrationCount == before)
    #expect(await relay.server.watchedDevice("RELAYED")?.registrationCount == 3)
    // Other routes go through too.
    let sync = try await relay.raw(
      "POST", "/device/v1/\(watchAppID)/sync/RELAYED", headers: Rig.android, body: "{}")
    #expect(sync.0 == 200)
    #expect(await tenant.server.watchedDevice("RELAYED")?.otherRoutes["sync"] == 1)
    await relay.stop()
    await tenant.stop()
  }

  @Test("a tenant that cannot be reached: 502 with a JSON reason, and the attempt is on record")
  func unreachable() async throws {
    let refusing = try #require(RefusingPort())
    let port = refusing.port
    let relay = try await Rig(upstream: "http://127.0.0.1:\(port)")
    let (status, _, answer) = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: "LOST", app: watchAppID))
    #expect(status == 502)
    #expect(answer.contains("upstreamUnreachable") && answer.contains("127.0.0.1:\(port)"))
    #expect(await relay.server.watchedDevice("LOST")?.registrations.last?.status == 502)
    await relay.stop()
    withExtendedLifetime(refusing) {}
  }
}
