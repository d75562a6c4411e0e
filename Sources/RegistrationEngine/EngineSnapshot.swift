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

extension EngineSnapshot {
  /// A snapshot of stored state with no engine running (the SDK-state dump).
  public static func stored(
    _ state: RegistrationState, location: String, profile: SDKProfile = .documented,
    now: Instant = .zero
  ) -> EngineSnapshot {
    let device = state.record.device
    let settings = MachineSettings(
      platform: device.platform, etAppId: device.etAppId, profile: profile)
    let (machine, _) = RegistrationMachine.relaunch(
      settings: settings, state: state, environment: device.environment,
      now: state.scheduler.lastAttemptAt ?? .zero)
    return EngineSnapshot(
      now: now, state: state, plan: machine.plan, inFlight: nil, appState: .foreground,
      missingRequired: machine.missingRequired, settings: settings, storeLocation: location,
      storeProblem: nil)
  }
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
