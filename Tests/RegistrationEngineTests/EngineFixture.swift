import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import Synchronization
import TestSupport

let testToken = "tok-SECRET-0123456789abcdef"

func testConfiguration(delay: Bool = false, platform: Platform = .iOS) throws
  -> RegistrationConfiguration
{
  try RegistrationConfigurationBuilder()
    .setApplicationId("995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47")
    .setAccessToken(testToken)
    .setMarketingCloudServerUrl("http://127.0.0.1:9")
    .setDelayRegistrationUntilContactKeyIsSet(delay)
    .setPlatform(platform)
    .build()
}

/// Collects events in order; `sendable` so the engine's sink can write to it.
final class EventLog: Sendable {
  private let events = Mutex<[TimedEvent]>([])

  var all: [TimedEvent] { events.withLock { $0 } }
  var types: [String] { all.map(\.event.type) }
  func append(_ event: TimedEvent) { events.withLock { $0.append(event) } }
  func count(_ type: String) -> Int { types.filter { $0 == type }.count }
}

/// An engine on a virtual clock with an in-process transport.
struct EngineFixture {
  let clock: VirtualClock
  let store: RegistrationStore
  let transport: InMemoryTransport
  let log = EventLog()
  let engine: RegistrationEngine

  init(
    store: RegistrationStore? = nil, clock: VirtualClock = VirtualClock(),
    transport: InMemoryTransport = InMemoryTransport(),
    configuration: RegistrationConfiguration? = nil,
    environment: DeviceEnvironment = .demo(.iOS)
  ) throws {
    self.clock = clock
    self.store = try store ?? RegistrationStore.inMemory()
    self.transport = transport
    let log = self.log
    engine = RegistrationEngine(
      configuration: try configuration ?? testConfiguration(), store: self.store,
      transport: transport, clock: clock, environment: environment,
      makeDeviceID: { "DEVICE-0001" }, eventSink: { log.append($0) })
  }

  /// The same store, transport and clock, as a new process would see them after a restart.
  func restarted(environment: DeviceEnvironment = .demo(.iOS)) async throws -> EngineFixture {
    await engine.shutDown()
    return try EngineFixture(
      store: store, clock: clock, transport: transport, configuration: engine.configuration,
      environment: environment)
  }

  func advance(to seconds: Double) async throws {
    try await engine.advance(clock, to: Instant(seconds))
  }
}

func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("regscope-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
