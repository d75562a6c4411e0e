import EngagementCore
import RegistrationCore
import SessionValues

/// One job a face drives: a simulated device (`DeviceSession`), real apps received or relayed
/// (`ReceiverSession`), or a device read from a state dump (`ImportedSession`).
/// `SessionFactory` builds them; a face holds `any Session` and never asks which it has.
public protocol Session: AnyObject, Sendable {
  /// Where registrations go (or come in), in words.
  var destination: String { get }
  /// The session's time: virtual seconds, or the (scaled) wall clock.
  var now: Instant { get }
  /// How fast the clock runs, 0 when paused. Real time (1) for a job whose clock is not its own.
  var rate: Double { get }
  /// Sets the clock's rate (0 pauses it); false when the job's clock cannot be changed.
  @discardableResult func setRate(_ rate: Double) -> Bool
  /// Jumps the clock to the next deadline; nil when nothing is due or the clock cannot jump.
  func jumpToNextDeadline() async -> Instant?
  func execute(_ command: Command) async throws -> CommandOutcome
  func snapshot() async -> SessionSnapshot
  /// Pushes a fresh snapshot to `watcher` after every change, coalesced. Replaces an earlier
  /// watcher.
  func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void)
  func stop() async
  /// Each field's story for a device real apps registered (a receiver's); nil elsewhere.
  func fields(of deviceID: String) async -> DeviceFieldStories?
}

extension Session {
  public var rate: Double { 1 }

  @discardableResult public func setRate(_ rate: Double) -> Bool { false }

  public func jumpToNextDeadline() async -> Instant? { nil }

  public func fields(of deviceID: String) async -> DeviceFieldStories? { nil }

  /// Runs `command` and keeps what came of it, errors included: what a face reports.
  public func run(_ command: Command) async -> CommandResult {
    do {
      return CommandResult(command: command, outcome: .success(try await execute(command)))
    } catch {
      return CommandResult(command: command, outcome: .failure(error))
    }
  }
}
