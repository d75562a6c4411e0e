import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// The simulator and the judge agree: each profile's engine, over loopback, through outages,
/// 429s with Retry-After, restarts and background/foreground, draws no violation; a client
/// that hammers draws one.
@Suite("profile engines through the judge", .serialized, .timeLimit(.minutes(10)))
struct ProfileEnginesThroughJudgeTests {
  typealias Rig = WatchOverHTTPTests.Rig

  @Test(
    "each profile's engine: outages, dropped connections, Retry-After, a restart, background: no violation",
    arguments: [
      "documented", "ios", "android",
      // The majors apps run (SDK-FACTS, "Across SDK majors"), and one past the newest read.
      "android@8.0.1", "android@8.2.1", "android@8.2.2", "android@9.0.0", "android@9.0.3",
      "ios@8.0.7", "ios@8.1.4", "ios@9.0.0", "ios@9.0.1", "android@11.0.0",
    ])
  func agree(spelled: String) async throws {
    let rig = try await Rig()
    let profile = try #require(SDKProfile(loose: spelled))
    let name = profile.name
    let platform = profile.platform ?? .iOS
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-judge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("device.sqlite").path
    var engine = try rig.engine(
      profile, platform: platform, device: "AGREE-1", store: try RegistrationStore.open(at: path))
    var now = 0.0
    func at(_ seconds: Double, _ edit: Edit? = nil) async throws {
      now = seconds
      try await engine.advance(rig.clock, to: Instant(seconds))
      if let edit { _ = try await engine.apply(edit) }
    }
    try await engine.launch()
    try await at(1)
    // Edits inside and outside the throttle.
    try await at(10, .addTag("a"))
    try await at(30, .setAttribute(key: "CODE", value: "1"))
    try await at(200, .addTag("b"))
    // An outage of four 503s, with an edit in the middle of the backoff.
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 4))
    try await at(400, .addTag("c"))
    try await at(500, .addTag("during-backoff"))
    try await at(2_000)
    // A 429 with Retry-After 300, then an edit and the app going to the background.
    await rig.server.setFault(ServerFault(kind: .status(429, retryAfter: 300), remaining: 1))
    try await at(2_100, .addTag("d"))
    try await at(2_150, .addTag("e"))
    try await engine.setAppState(.background)
    try await at(2_160)
    try await engine.setAppState(.foreground)
    try await at(3_000)
    // Connections dropped without an answer, three times (a fault that needs no listener
    // to stop and start, so the run does not depend on real time).
    await rig.server.setFault(ServerFault(kind: .drop, remaining: 3))
    try await at(3_100, .addTag("f"))
    try await at(5_000)
    // A failure, then the app is killed and relaunched with the change pending.
    await rig.server.setFault(ServerFault(kind: .status(500, retryAfter: nil), remaining: 1))
    try await at(5_100, .addTag("g"))
    try await at(5_102)
    await engine.shutDown()
    try await at(5_110)
    engine = try rig.engine(
      profile, platform: platform, device: "AGREE-1", store: try RegistrationStore.open(at: path))
    try await engine.launch()
    try await at(5_200)
    // A change, then the app goes to the background a few seconds after a send.
    try await at(5_300, .addTag("h"))
    try await at(5_302)
    try await at(5_310, .addTag("i"))
    try await engine.setAppState(.background)
    try await at(6_000)
    await engine.shutDown()

    let device = try #require(await rig.server.watchedDevice("AGREE-1"))
    let findings = device.registrations.flatMap(\.findings)
    #expect(device.registrationCount >= 10, "\(device.registrationCount) registrations")
    #expect(
      findings.filter { $0.severity == .violation }.isEmpty,
      "\(name): \(findings.map { "\($0.code) \($0.message)" })")
    #expect(
      device.identity.sdk == (name == .documented ? .unknown : name == .ios ? .ios : .android))
    // Judged by the profile of the version it named.
    let expected =
      spelled.hasSuffix("11.0.0") ? "android@10.0.0" : spelled.contains("@") ? spelled : nil
    if let expected { #expect(device.identity.profileName == expected) }
    await rig.stop()
  }

  @Test("a broken client that retries every 5 s after a 503 draws a violation")
  func brokenClient() async throws {
    let rig = try await Rig()
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 3))
    for second in [0.0, 5, 10] {
      rig.clock.advance(to: Instant(second))
      _ = try await rig.raw(
        "POST", "/device/v1/registration", headers: Rig.android,
        body: sdkBody(device: "BROKEN", app: watchAppID))
    }
    let device = try #require(await rig.server.watchedDevice("BROKEN"))
    #expect(device.severityCounts[.violation, default: 0] >= 1, "\(device.registrations)")
    await rig.stop()
  }
}
