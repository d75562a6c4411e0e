import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// Each SDK is judged by its own rules (SDK-FACTS "Throttle and retry"): every sequence a
/// correct iOS or Android 10 app sends draws no violation; the broken ones each draw one.
/// The judge's contact findings and the server's processing agree (R8, S3, S4).
@Suite("the judge agrees with /api/stats")
struct JudgeAgreesWithStatsTests {
  /// Sends `steps` (seconds, body, injected status or nil for the server's own answer) to a
  /// local server in virtual time, processes everything, and returns the device's findings
  /// and the server's orphan count.
  static func run(_ steps: [(Double, String, Int?)], defined: Set<String>? = nil) async throws
    -> (findings: [Finding], orphaned: Int)
  {
    let clock = VirtualClock()
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: appID, accessToken: "token", processingDelay: 10, definedAttributes: defined),
      store: ServerStore.inMemory(), clock: clock)
    for (at, body, injected) in steps {
      clock.advance(to: Instant(at))
      await server.processDue()
      if let injected {
        await server.setFault(
          ServerFault(kind: .status(injected, retryAfter: nil), remaining: 1))
      }
      _ = await server.receive(
        EngagementServerCore.validate(
          authorization: "Bearer token", body: Array(body.utf8),
          settings: server.validationSettings),
        facts: RequestFacts(userAgent: androidAgent))
    }
    clock.advance(to: Instant(10_000))
    await server.processDue()
    let device = try #require(await server.watchedDevice("WATCH-1"))
    return (device.registrations.flatMap(\.findings), await server.stats().orphanedContacts)
  }

  @Test("anonymous refused then a key: no finding, no orphan; anonymous accepted: both say one")
  func agree() async throws {
    let refused = try await Self.run([(0, sdkBody(), 503), (100, sdkBody(key: "alice@x"), nil)])
    #expect(!refused.findings.map(\.code).contains(.contactKeyChanged))
    #expect(refused.orphaned == 0)
    let rejected = try await Self.run(
      [(0, sdkBody(attributes: ["Plan": "x"]), nil), (100, sdkBody(key: "alice@x"), nil)],
      defined: ["Tier"])
    #expect(!rejected.findings.map(\.code).contains(.contactKeyChanged))
    #expect(rejected.orphaned == 0)
    let accepted = try await Self.run([(0, sdkBody(), nil), (100, sdkBody(key: "alice@x"), nil)])
    #expect(accepted.findings.filter { $0.code == .contactKeyChanged }.count == 1)
    #expect(accepted.orphaned == 1)
  }
}
