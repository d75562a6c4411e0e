/// Everything the engine decides, as a value (R5.3). The names are those of DESIGN.md's event
/// stream.
public enum RegistrationEvent: Hashable, Sendable {
  case launched(firstLaunch: Bool, deviceID: String)
  case edited(PendingChange)
  case inputRejected(Rejection)
  case warning(Warning)
  /// `rule`: why a change goes out then, in the words of the SDK profile's schedule.
  case scheduled(at: Instant, reason: ScheduleReason, openedBy: ChangeTarget?, rule: String = "")
  case delayed(reason: String)
  case sending(sendID: Int, attempt: Int, reason: ScheduleReason, payload: RegistrationPayload)
  case sent(sendID: Int, attempt: Int, status: Int, payload: RegistrationPayload)
  /// `local`: no request left the device; the SDK answered itself (Android's too-early 429).
  case failed(
    sendID: Int, attempt: Int, status: Int?, error: String?, retryAt: Instant, needsFix: Bool,
    local: Bool = false)
  case sendSkipped(reason: String)

  public var kind: EventKind {
    switch self {
    case .launched: .launched
    case .edited: .edited
    case .inputRejected: .inputRejected
    case .warning: .warning
    case .scheduled: .scheduled
    case .delayed: .delayed
    case .sending: .sending
    case .sent: .sent
    case .failed: .failed
    case .sendSkipped: .sendSkipped
    }
  }

  /// The event-stream type name.
  public var type: String { kind.rawValue }
}

/// An event with the time it was decided at.
public struct TimedEvent: Hashable, Sendable {
  public var at: Instant
  public var event: RegistrationEvent
  /// For `sending` and `sent`: the exact body that went on the wire (with a shipped SDK's
  /// stamps), so observers show it without encoding it again.
  public var wireBody: [UInt8]?

  public init(at: Instant, event: RegistrationEvent, wireBody: [UInt8]? = nil) {
    self.at = at
    self.event = event
    self.wireBody = wireBody
  }
}
