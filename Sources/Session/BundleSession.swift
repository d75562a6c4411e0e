import EngagementCore
import RegistrationCore
import SessionValues

/// A debug bundle reopened (`regscope --open FILE`, #54): its capture judged again with the
/// bundle's demographics table, shown in the receiver's layout, read-only and offline, each
/// device's field stories replayed from the capture for the Fields pane.
public final class BundleSession: Session {
  public let source: String
  private let capture: CaptureSession
  private let stories: [String: DeviceFieldStories]

  /// `source` says where the bundle came from and when it was made.
  public init(_ judge: CaptureJudge, source: String) {
    self.source = source
    capture = CaptureSession(judge, sources: [source])
    var replay = judge.replay ?? FieldReplay(definedAttributes: judge.definedAttributes)
    stories = Dictionary(
      replay.stories(judge.watch).map { ($0.deviceID, $0) }, uniquingKeysWith: { $1 })
  }

  public var destination: String { "\(source) (read-only)" }

  public var now: Instant { capture.now }

  public var rate: Double { 0 }

  public func execute(_ command: Command) async throws -> CommandOutcome {
    if command == .launch { return .done("showing the \(source)") }
    throw SessionError.captured(source)
  }

  public func fields(of deviceID: String) async -> DeviceFieldStories? { stories[deviceID] }

  public func snapshot() async -> SessionSnapshot { await capture.snapshot() }

  public func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    capture.watch(watcher)
  }

  public func stop() async { await capture.stop() }
}
