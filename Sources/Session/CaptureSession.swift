import EngagementCore
import RegistrationCore
import SessionValues

/// A judged capture (`regscope --judge FILE`), shown in the receiver's layout, read-only. Its
/// clock is the capture's: it stands at the last request the capture holds, so each device's
/// "next allowed" reads as it did when the capture ended.
public final class CaptureSession: Session {
  public let sources: [String]
  private let view: SessionSnapshot.ReceiverView
  private let publisher = SnapshotPublisher()

  init(_ judge: CaptureJudge, sources: [String]) {
    self.sources = sources
    let devices = judge.devices.sorted { $0.lastSeen > $1.lastSeen }
    view = SessionSnapshot.ReceiverView(
      server: nil, watched: devices,
      notice: CaptureText.headline(judge),
      now: devices.map(\.lastSeen).max() ?? .zero, live: false)
    publisher.start { [view] in .receiver(view) }
  }

  public var destination: String { "capture \(sources.joined(separator: ", ")) (read-only)" }

  public var now: Instant { view.now }

  /// The capture's clock stands still.
  public var rate: Double { 0 }

  public func execute(_ command: Command) async throws -> CommandOutcome {
    if command == .launch { return .done("showing the capture \(sources.joined(separator: ", "))") }
    throw SessionError.captured(sources.joined(separator: ", "))
  }

  public func snapshot() async -> SessionSnapshot { .receiver(view) }

  public func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    publisher.watch(watcher)
    publisher.changed()
  }

  public func stop() async { publisher.stop() }
}
