import Clocks
import RegistrationCore
import RegistrationEngine
import Synchronization

/// A 30-day outage in virtual time through the engine: its actor, an in-memory SQLite store,
/// a transport whose every send is refused. Returns the attempts made (the ladder, then daily).
enum Outage {
  static let thirtyDays = 30.0 * 86_400

  static func throughEngine() async throws -> Int {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId("bench-app").setAccessToken("bench-token-0123456789")
      .setMarketingCloudServerUrl("http://127.0.0.1:9").build()
    let transport = RefusingTransport()
    let clock = VirtualClock()
    let engine = RegistrationEngine(
      configuration: configuration, store: try RegistrationStore.inMemory(), transport: transport,
      clock: clock, environment: .demo(.iOS))
    try await engine.launch()
    try await engine.advance(clock, to: Instant(thirtyDays))
    return transport.sent.withLock { $0 }
  }
}

/// Refuses every send, as a server that is down does, and counts them.
private final class RefusingTransport: RegistrationTransport {
  let sent = Mutex(0)

  func send(_ request: RegistrationRequest) async -> SendResult {
    sent.withLock { $0 += 1 }
    return .transportFailed("connection refused")
  }
}
