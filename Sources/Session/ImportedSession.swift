import Clocks
import EngagementCore
import RegistrationCore
import SessionValues

/// A device read from a shipped SDK's state dump, shown read-only: no engine runs, nothing is
/// sent, every command but `launch` is refused.
public final class ImportedSession: Session {
  public let device: ImportedDevice
  private let shown: EngineSnapshot
  private let clock: any EngineClock
  private let publisher = SnapshotPublisher()

  init(_ device: ImportedDevice, clock: any EngineClock) {
    self.device = device
    self.clock = clock
    shown = EngineSnapshot.stored(
      device.state, location: "imported from \(device.source) (read-only)",
      profile: device.profile, now: clock.now())
    publisher.start { [shown, clock] in .imported(shown, now: clock.now()) }
  }

  public var destination: String { "imported from \(device.source) (read-only)" }

  public var now: Instant { clock.now() }

  public func execute(_ command: Command) async throws -> CommandOutcome {
    if command == .launch { return .done("showing the device imported from \(device.source)") }
    throw SessionError.readOnly(device.source)
  }

  public func snapshot() async -> SessionSnapshot { .imported(shown, now: clock.now()) }

  public func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    publisher.watch(watcher)
    publisher.changed()
  }

  public func stop() async { publisher.stop() }
}
