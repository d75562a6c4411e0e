/// Everything an observer needs to show the engine at one instant: the inspector's panes and
/// the SDK-state dump read this and nothing else.
public struct EngineSnapshot: Sendable {
  public var now: Instant
  /// The machine itself (a value): previews of an edit run on it, by the same rules.
  public var machine: RegistrationMachine
  /// Worked out once when the snapshot is taken, since every frame reads it.
  public var plan: SendPlan
  public var storeLocation: String
  /// The last failure to write the store, if the engine is running on borrowed time.
  public var storeProblem: String?

  public init(
    now: Instant, machine: RegistrationMachine, storeLocation: String, storeProblem: String?
  ) {
    self.now = now
    self.machine = machine
    plan = machine.plan
    self.storeLocation = storeLocation
    self.storeProblem = storeProblem
  }

  public var state: RegistrationState { machine.state }
  public var inFlight: InFlightSend? { machine.inFlight }
  public var appState: AppState { machine.appState }
  public var missingRequired: [String] { machine.missingRequired }
  public var settings: MachineSettings { machine.settings }
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
    return EngineSnapshot(now: now, machine: machine, storeLocation: location, storeProblem: nil)
  }
}
