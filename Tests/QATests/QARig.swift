import Clocks
import EngagementCore
import EngagementHTTP
import EngagementServer
import Foundation
import QA
import RegistrationCore
import RegistrationEngine
import Session
import SessionHTTP
import Synchronization
import TestSupport
import Testing

/// A receiver over loopback HTTP and one virtual clock, shared with the app under test (a
/// test-only arrangement): the plan's minutes pass at once, and every wait and time-out is
/// still measured on the clock the judge reads, so nothing is judged more leniently than in
/// real time.
struct QARig {
  let clock = VirtualClock(start: Instant(1_800_000_000))
  let server: LocalEngagementServer
  let front: EngagementHTTPServer
  let port: Int

  init() async throws {
    server = try LocalEngagementServer(
      settings: ServerSettings(appID: watchAppID, accessToken: watchToken, processingDelay: 300),
      store: ServerStore.inMemory(), clock: clock)
    front = try HTTPNetwork.front(for: server, options: ReceiverOptions(port: 0)).front
    port = try await front.start()
  }

  func engine(
    _ profile: SDKProfile, platform: Platform, store: RegistrationStore,
    transport: any RegistrationTransport = HTTPTransport()
  ) throws -> RegistrationEngine {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId(watchAppID).setAccessToken(watchToken).setPlatform(platform)
      .setSDKProfile(profile).setMarketingCloudServerUrl("http://127.0.0.1:\(port)").build()
    return RegistrationEngine(
      configuration: configuration, store: store, transport: transport, clock: clock,
      environment: .demo(platform, profile: profile), makeDeviceID: { "QA-DEVICE" })
  }

  /// Whose turn it is to move the clock: the tester's (an ask), the driver's (an advance), or
  /// nobody's. An ask waits for an advance to end, as a tester acts on an app that has heard
  /// its answers, never in the middle of a send.
  enum Turn { case free, tester, clock }

  /// Runs `plan`, answering each ask with `act`, and moves the shared clock a second at a
  /// time through `advance` (the app's deadlines on the way) until the run ends. The clock
  /// moves only while the runner rests (asleep on an expectation): each step sees the app
  /// exactly as a real run would, never a second late.
  func run(
    _ plan: QAPlan, act: @escaping @Sendable (String) async -> Void,
    advance: @escaping @Sendable (Instant) async -> Void
  ) async -> QAReport {
    let turn = Mutex(Turn.free)
    @Sendable func take(_ taker: Turn) -> Bool {
      turn.withLock { current in
        guard current == .free else { return false }
        current = taker
        return true
      }
    }
    let runner = QARunner(
      server: server,
      ask: { _, text in
        while !take(.tester) { await Task.yield() }
        await act(text)
        turn.withLock { $0 = .free }
      })
    let run = Task { await runner.run(plan) }
    let done = Mutex(false)
    let watcher = Task {
      _ = await run.value
      done.withLock { $0 = true }
    }
    while !done.withLock({ $0 }) {
      // Nothing but the runner waits on the watch here: a waiter is the runner at rest.
      guard server.changes.signal(.watched).waiting > 0, take(.clock) else {
        await Task.yield()
        continue
      }
      await advance(clock.now() + 1)
      turn.withLock { $0 = .free }
      await Task.yield()
    }
    _ = await watcher.value
    return await run.value
  }

  func stop() async { await front.stop() }
}
