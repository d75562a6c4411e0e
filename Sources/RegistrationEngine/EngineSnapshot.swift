import RegistrationCore

/// Everything an observer needs to show the engine at one instant: the inspector's panes and
/// the SDK-state dump read this and nothing else.
public struct EngineSnapshot: Sendable {
  public var now: Instant
  public var state: RegistrationState
  public var plan: SendPlan
  public var inFlight: InFlightSend?
  public var appState: AppState
  public var missingRequired: [String]
  public var settings: MachineSettings
  public var storeLocation: String
  /// The last failure to write the store, if the engine is running on borrowed time.
  public var storeProblem: String?
}

public enum EngineError: Error, Hashable, Sendable, CustomStringConvertible {
  case notLaunched
  case shutDown

  public var description: String {
    switch self {
    case .notLaunched: "the engine has not been launched yet"
    case .shutDown: "the engine was shut down (restarted); use the new one"
    }
  }
}

/// Identifies a registration listener so it can be removed (R5.1, R5.2).
public struct ListenerID: Hashable, Sendable {
  let value: Int
}
