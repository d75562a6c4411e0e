import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import SessionHTTP
import Synchronization
import TestSupport
import Testing

/// Golden requests: what a server on loopback receives from each profile, header by header.
@Suite("SDK profiles on the wire", .serialized, .timeLimit(.minutes(10)))
struct ProfileWireTests {
  static let appID = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
  static let token = "wire-test-access-token-1"  // 24 characters: the SDKs' own check
  /// 2026-11-22 10:15:30.250 UTC.
  static let sendTime = 1_795_342_530.25

  static func capture(
    _ profile: SDKProfile, platform: Platform, answer: String = #"{"received":true}"#,
    listener: RegistrationEngine.Listener? = nil
  ) async throws -> CaptureServer.Request {
    let server = try CaptureServer(answer: answer)
    defer { server.stop() }
    let (engine, clock) = try engine(profile, platform: platform, server: server)
    if let listener { await engine.addRegistrationListener(listener) }
    try await engine.launch()
    try await engine.advance(clock, to: Instant(sendTime))
    await engine.shutDown()
    #expect(try await engine.history().first?.status == 201)
    return try #require(server.requests.first)
  }

  /// An engine being `profile` on `platform`, sending to `server`, on a clock at `sendTime`.
  static func engine(_ profile: SDKProfile, platform: Platform, server: CaptureServer) throws
    -> (RegistrationEngine, VirtualClock)
  {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(appID).setAccessToken(token)
      .setMarketingCloudServerUrl("http://127.0.0.1:\(server.port)").setPlatform(platform)
      .setSDKProfile(profile).build()
    let clock = VirtualClock(start: Instant(sendTime))
    let engine = RegistrationEngine(
      configuration: configuration, store: try RegistrationStore.inMemory(),
      transport: HTTPTransport(), clock: clock,
      environment: .demo(platform, profile: profile), makeDeviceID: { "WIRE-DEVICE" },
      makeRequestID: { "3F2504E0-4F89-11D3-9A0C-0305E82C3301" })
    return (engine, clock)
  }

  static func body(_ request: CaptureServer.Request) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
  }

  /// The headers the profile writes, in order, with the client's own (Host, Content-Length,
  /// Connection) left out.
  static func profileHeaders(_ request: CaptureServer.Request) -> [String] {
    request.headers.map(\.name).filter {
      !["host", "content-length", "connection"].contains($0.lowercased())
    }
  }

  @Test(
    "ios: Capitalized headers, X-SDK-Version, the SDK's User-Agent, uuid and registrationDateUtc")
  func ios() async throws {
    let request = try await Self.capture(.ios, platform: .iOS)
    #expect(request.method == "POST" && request.path == "/device/v1/registration")
    #expect(
      Self.profileHeaders(request) == [
        "Accept", "Content-Type", "User-Agent", "Authorization", "X-SDK-Version",
      ])
    #expect(
      request.header("User-Agent")
        == "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0")
    #expect(request.header("X-SDK-Version") == "10.0.0")
    #expect(request.header("Authorization") == "Bearer \(Self.token)")
    let body = try Self.body(request)
    #expect(body["uuid"] as? String == "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    #expect(body["registrationDateUtc"] as? String == "2026-11-22T10:15:30.250Z")
    #expect(body["language"] == nil && body["badge"] == nil)
    #expect(body["timeZone"] as? String == "0000")
    #expect(body["sdk_Version"] as? String == "10.0.0")
    #expect((body["tags"] as? [String]) == ["ALL", "IOS", "iPhone"])
  }

  @Test("android: lower-case header names, its User-Agent, quietPushEnabled false, stamps")
  func android() async throws {
    let request = try await Self.capture(.android, platform: .android)
    #expect(
      Self.profileHeaders(request) == [
        "accept", "content-type", "user-agent", "authorization", "x-sdk-version",
      ])
    #expect(
      request.header("user-agent")
        == "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0.0")
    let body = try Self.body(request)
    #expect(body["platform"] as? String == "Android")
    #expect(body["hwid"] as? String == "Google Pixel 8")
    #expect(body["quietPushEnabled"] as? Bool == false)
    #expect(body["uuid"] as? String == "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
    #expect(body["registrationDateUtc"] as? String == "2026-11-22T10:15:30.250Z")
    #expect(body["language"] == nil && body["badge"] == nil)
  }

  @Test("documented: RegScope's own User-Agent, no X-SDK-Version, no stamps, language and badge")
  func documented() async throws {
    let request = try await Self.capture(.documented, platform: .iOS)
    #expect(
      Self.profileHeaders(request) == ["Accept", "Content-Type", "User-Agent", "Authorization"])
    #expect(request.header("User-Agent")?.hasPrefix("RegScope MobilePushSDK/8.1.0") == true)
    let body = try Self.body(request)
    #expect(body["uuid"] == nil && body["registrationDateUtc"] == nil)
    #expect(body["language"] as? String == "en" && body["badge"] as? Int == 0)
  }

  @Test("listeners: android gets the body sent, ios the server's answer (and nothing when empty)")
  func listeners() async throws {
    let heard = Mutex<[ListenerDelivery]>([])
    let listener: RegistrationEngine.Listener = { delivery, _ in
      heard.withLock { $0.append(delivery) }
    }
    _ = try await Self.capture(.android, platform: .android, listener: listener)
    guard case .registration(let payload)? = heard.withLock({ $0.last }) else {
      Issue.record("android: expected the registration, got \(heard.withLock { $0 })")
      return
    }
    #expect(payload.deviceID == "WIRE-DEVICE")
    _ = try await Self.capture(.ios, platform: .iOS, listener: listener)
    #expect(heard.withLock { $0.last } == .answer(#"{"received":true}"#))
    _ = try await Self.capture(.ios, platform: .iOS, answer: "", listener: listener)
    #expect(heard.withLock { $0.count } == 2)
  }

  @Test("an X-Subscriber-Token the server hands out is kept and sent back (ios, android)")
  func subscriberToken() async throws {
    for (profile, platform) in [(SDKProfile.ios, Platform.iOS), (.android, .android)] {
      let server = try CaptureServer(headers: ["X-Subscriber-Token: sub-token-42"])
      defer { server.stop() }
      let (engine, clock) = try Self.engine(profile, platform: platform, server: server)
      try await engine.launch()
      try await engine.advance(clock, to: Instant(Self.sendTime))
      try await engine.apply(.addTag("second"))
      try await engine.advance(clock, to: Instant(Self.sendTime + 300))
      await engine.shutDown()
      let requests = server.requests
      #expect(requests.count == 2, "\(profile.name)")
      #expect(requests.first?.header("X-Subscriber-Token") == nil)
      #expect(requests.last?.header("X-Subscriber-Token") == "sub-token-42", "\(profile.name)")
    }
  }

  @Test("the shipped SDKs refuse a token that is not 24 characters or an app id that is no UUID")
  func startupChecks() throws {
    let builder = RegistrationConfigurationBuilder()
      .setApplicationId("995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47").setAccessToken("short")
      .setMarketingCloudServerUrl("https://mc.example.com")
    for profile in [SDKProfile.ios, .android] {
      #expect {
        try builder.setSDKProfile(profile).build()
      } throws: { error in
        "\(error)".contains("appid") && "\(error)".contains("refuses to start")
      }
    }
    let documented = try builder.build()
    #expect(documented.startupWarnings.count == 2)
    #expect(documented.startupWarnings.first { $0.contains("24 characters") } != nil)
  }
}

@Suite("uuid on the wire: per record version on iOS, per request on Android")
struct RequestUUIDTests {
  /// The uuids of the requests an engine being `profile` sends: a failing send and its retry,
  /// then a changed record.
  static func uuids(_ profile: SDKProfile, platform: Platform) async throws -> [String] {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(ProfileWireTests.appID).setAccessToken(ProfileWireTests.token)
      .setMarketingCloudServerUrl("http://127.0.0.1:9").setPlatform(platform)
      .setSDKProfile(profile).build()
    let transport = InMemoryTransport { _ in .answered(status: 503, retryAfter: nil) }
    let clock = VirtualClock()
    let engine = RegistrationEngine(
      configuration: configuration, store: try RegistrationStore.inMemory(),
      transport: transport, clock: clock, environment: .demo(platform, profile: profile))
    try await engine.launch()
    try await engine.advance(clock, to: Instant(200))
    transport.setResponder { _ in .answered(status: 201, retryAfter: nil) }
    try await engine.advance(clock, to: Instant(1000))
    _ = try await engine.apply(.addTag("changed"))
    try await engine.advance(clock, to: Instant(2000))
    await engine.shutDown()
    return transport.requests.compactMap(\.payload.uuid)
  }

  @Test("ios: a retry carries the same uuid, a changed record a new one; android: each its own")
  func uuids() async throws {
    let ios = try await Self.uuids(.ios, platform: .iOS)
    #expect(ios.count >= 3)
    #expect(Set(ios.dropLast()).count == 1, "\(ios)")
    #expect(ios.last != ios.first)
    let android = try await Self.uuids(.android, platform: .android)
    #expect(android.count >= 3 && Set(android).count == android.count, "\(android)")
  }
}

/// Each major read sends what its binary sends (SDK-FACTS, "Across SDK majors").
@Suite("SDK versions on the wire", .serialized, .timeLimit(.minutes(10)))
struct VersionedProfileWireTests {
  @Test(
    "android@8.2.1: mixed-case headers, no uuid; 8.2.2 lower case; 9.0.0 with uuid",
    arguments: [
      ("8.2.1", true, false), ("8.2.2", false, false), ("9.0.0", false, true),
      ("10.0.0", false, true),
    ])
  func android(_ version: String, mixedCase: Bool, uuid: Bool) async throws {
    let profile = try #require(SDKProfile(loose: "android@\(version)"))
    let request = try await ProfileWireTests.capture(profile, platform: .android)
    let names = ProfileWireTests.profileHeaders(request)
    #expect(names.contains("User-Agent") == mixedCase, "\(names)")
    #expect(names.contains("user-agent") == !mixedCase, "\(names)")
    let body = try ProfileWireTests.body(request)
    #expect((body["uuid"] != nil) == uuid, "\(body.keys.sorted())")
    #expect(body["sdk_Version"] as? String == version)
    #expect(body["registrationDateUtc"] != nil)
    #expect(request.header("user-agent")?.hasPrefix("MarketingCloudSdk/\(version) ") == true)
  }

  @Test("ios@9.0.0 sends no uuid; 9.0.1 does", arguments: [("9.0.0", false), ("9.0.1", true)])
  func ios(_ version: String, uuid: Bool) async throws {
    let profile = try #require(SDKProfile(loose: "ios@\(version)"))
    let request = try await ProfileWireTests.capture(profile, platform: .iOS)
    let body = try ProfileWireTests.body(request)
    #expect((body["uuid"] != nil) == uuid, "\(body.keys.sorted())")
    #expect(body["sdk_Version"] as? String == version)
  }

  @Test(
    "a version not read, a malformed one, or one for the documented contract is refused",
    arguments: [
      "android@7.9.0", "ios@9", "android@8.2.x", "documented@8.0.0", "android@", "ios@1e9.0.0",
    ])
  func refused(_ text: String) {
    #expect(SDKProfile(loose: text) == nil)
  }
}
