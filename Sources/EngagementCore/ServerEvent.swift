import RegistrationCore

/// What the server did, for the event stream (DESIGN: serverReceived, serverProcessed,
/// orphaned) and the inspector's server pane.
public enum ServerEvent: Hashable, Sendable {
  case received(registrationID: Int, deviceID: String, status: Int, processAt: Instant)
  /// A registration refused (S1), with the device it named, or its client's stand-in.
  case refused(status: Int, reason: String, deviceID: String? = nil)
  /// A violation or warning the watch found in a real app's registration.
  case finding(deviceID: String, finding: Finding)
  case faulted(String)
  /// `--any-app`: the first request's app id and token became the app's.
  case adopted(appID: String, maskedToken: String)
  case processed(
    registrationID: Int, deviceID: String, contactKey: String, madeUp: Bool)
  case rejected(registrationID: Int, deviceID: String, reason: String)
  case orphaned(contactKey: String, madeUp: Bool, reason: String)
  /// The tenant asked what it holds for a relayed device, once the window had passed
  /// (`ReadBack.summary`, already escaped).
  case readBack(deviceID: String, summary: String, allHeld: Bool)

  public var kind: EventKind {
    switch self {
    case .received, .refused, .faulted, .adopted, .finding: .serverReceived
    case .processed, .rejected: .serverProcessed
    case .readBack: .tenantReadBack
    case .orphaned: .orphaned
    }
  }

  /// The event-stream type name.
  public var type: String { kind.rawValue }
}
