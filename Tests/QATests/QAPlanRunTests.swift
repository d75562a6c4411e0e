import Clocks
import EngagementCore
import EngagementHTTP
import EngagementServer
import Foundation
import QA
import RegistrationCore
import RegistrationEngine
import SessionHTTP
import Synchronization
import TestSupport
import Testing

/// RegScope's own profile engines as the app under test, over loopback HTTP, every built-in
/// plan. The receiver and the engine share one virtual clock (a test-only arrangement): the
/// plan's minutes pass at once, and every wait and time-out is still measured on the clock the
/// judge reads, so nothing is judged more leniently than in real time.
struct QARig {
  let clock = VirtualClock(start: Instant(1_800_000_000))
  let server: LocalEngagementServer
  let front: EngagementHTTPServer
  let port: Int

  init() async throws {
    server = try LocalEngagementServer(
      settings: ServerSettings(appID: watchAppID, accessToken: watchToken, processingDelay: 300),
      store: ServerStore.inMemory(), clock: clock)
    front = EngagementHTTPServer(server: server)
    port = try await front.start()
  }

  func engine(_ profile: SDKProfile, platform: Platform) throws -> RegistrationEngine {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(watchAppID).setAccessToken(watchToken).setPlatform(platform)
      .setSDKProfile(profile).setMarketingCloudServerUrl("http://127.0.0.1:\(port)").build()
    return RegistrationEngine(
      configuration: configuration, store: try RegistrationStore.inMemory(),
      transport: HTTPTransport(), clock: clock, environment: .demo(platform, profile: profile),
      makeDeviceID: { "QA-DEVICE" })
  }

  /// Runs `plan`, answering each ask with `act`, moving the shared clock a second at a time
  /// (the engine's deadlines on the way) until the run ends.
  func run(
    _ plan: QAPlan, engine: RegistrationEngine?, act: @escaping @Sendable (String) async -> Void
  ) async throws -> QAReport {
    // While the tester acts, the clock is theirs: the driver below waits.
    let acting = Mutex(false)
    let runner = QARunner(
      server: server,
      ask: { _, text in
        acting.withLock { $0 = true }
        await act(text)
        acting.withLock { $0 = false }
      })
    let run = Task { await runner.run(plan) }
    let done = Mutex(false)
    let watcher = Task {
      _ = await run.value
      done.withLock { $0 = true }
    }
    while !done.withLock({ $0 }) {
      if acting.withLock({ $0 }) {
        await Task.yield()
        continue
      }
      if let engine {
        try await engine.advance(clock, to: clock.now() + 1)
      } else {
        clock.advance(by: 1)
      }
      await Task.yield()
    }
    _ = await watcher.value
    return await run.value
  }

  func stop() async { await front.stop() }
}

/// What a tester does for each built-in plan's ask, on an engine.
func act(on engine: RegistrationEngine, clock: VirtualClock) -> @Sendable (String) async -> Void {
  { text in
    if text.contains("Install and open") {
      try? await engine.launch()
    } else if text.contains("qa-a and qa-b") {
      _ = try? await engine.apply(.addTag("qa-start"))
      try? await engine.advance(clock, to: clock.now() + 5)
      _ = try? await engine.apply(.addTag("qa-a"))
      try? await engine.advance(clock, to: clock.now() + 10)
      _ = try? await engine.apply(.addTag("qa-b"))
    } else if text.contains("two contact keys") {
      _ = try? await engine.apply(.setContactKey("qa-user-one@example.com"))
      try? await engine.advance(clock, to: clock.now() + 61)
      _ = try? await engine.apply(.setContactKey("qa-user-two@example.com"))
    } else if text.contains("new SDK over it") {
      // The new build's SDK: the record names the new version, and keeps everything else.
      _ = try? await engine.apply(.setSystem(.sdkVersion, "10.0.1"))
    } else if let tag = text.split(separator: " ").first(where: { $0.hasPrefix("qa-") }) {
      _ = try? await engine.apply(
        .addTag(String(tag.trimmingCharacters(in: .punctuationCharacters))))
    }
  }
}

@Suite(
  "QA plans, run on the SDK profiles as the app under test", .serialized, .timeLimit(.minutes(3)))
struct QAPlanRunTests {
  @Test(
    "the ios and android profiles pass every built-in plan",
    arguments: [("ios", Platform.iOS), ("android", .android)])
  func profilesPass(sdk: String, platform: Platform) async throws {
    for name in BuiltInPlans.names where name != "release-check" {
      let rig = try await QARig()
      let engine = try rig.engine(sdk == "ios" ? .ios : .android, platform: platform)
      let plan = try #require(BuiltInPlans.plan(name))
      if name != "first-registration" {
        // The app was installed before the plan: it has registered already.
        try await engine.launch()
        try await engine.advance(rig.clock, to: rig.clock.now() + 120)
      }
      let report = try await rig.run(plan, engine: engine, act: act(on: engine, clock: rig.clock))
      for result in report.results {
        #expect(
          result.verdict == .pass,
          "\(sdk) \(name) step \(result.step.number) \(result.step.summary): \(result.verdict.rawValue) \(result.evidence)"
        )
      }
      #expect(report.passed && report.device?.deviceID == "QA-DEVICE")
      await engine.shutDown()
      await rig.stop()
    }
  }

  @Test("release-check, every check in one run, passes on the android profile")
  func releaseCheck() async throws {
    let rig = try await QARig()
    let engine = try rig.engine(.android, platform: .android)
    let report = try await rig.run(
      try #require(BuiltInPlans.plan("release-check")), engine: engine,
      act: act(on: engine, clock: rig.clock))
    #expect(
      report.passed,
      "\(report.results.map { "\($0.step.number) \($0.verdict.rawValue) \($0.evidence)" })")
    #expect(report.results.count == report.plan.steps.count)
    await engine.shutDown()
    await rig.stop()
  }

  @Test("a broken client (retries at once, ignores Retry-After, drops the token) fails those steps")
  func brokenClient() async throws {
    for (name, failing) in [
      (
        "retry-ladder",
        [
          "expect: the retries keep to the SDK's minimum",
          "expect: the subscriber token is sent back",
        ]
      ),
      ("retry-after", ["expect: the next send is not before Retry-After"]),
    ] {
      let rig = try await QARig()
      let port = rig.port
      // Registered once before the plan, then on each ask: sends a change, and resends the
      // same body at once until an answer succeeds.
      let asks = Mutex(0)
      let broken: @Sendable (String) async -> Void = { _ in
        let ask = asks.withLock { count in
          count += 1
          return count
        }
        for _ in 0..<6 {
          let body = sdkBody(device: "BROKEN", app: watchAppID, tags: ["ALL", "ask\(ask)"])
          let head =
            "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
            + "authorization: Bearer \(watchToken)\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"
          let answer = (try? await rawExchange(port: port, Array((head + body).utf8))) ?? ""
          if answer.hasPrefix("HTTP/1.1 201") { return }
        }
      }
      await broken("install")
      rig.clock.advance(by: 120)
      let report = try await rig.run(
        try #require(BuiltInPlans.plan(name)), engine: nil, act: broken)
      let failed = report.results.filter { $0.verdict != .pass }.map(\.step.summary)
      #expect(
        failed == failing,
        "\(name): \(report.results.map { "\($0.step.summary) \($0.verdict.rawValue) \($0.evidence)" })"
      )
      #expect(!report.passed)
      await rig.stop()
    }
  }
}
