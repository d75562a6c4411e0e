/// The registration rules as one state machine, free of I/O (R2-R4, R8). It never reads a
/// clock: every input carries `now`. It never performs a send: it says which send to start,
/// and is told how it ended.
public struct RegistrationMachine: Sendable {
  public let settings: MachineSettings
  public internal(set) var state: RegistrationState
  public internal(set) var appState: AppState = .foreground
  public internal(set) var inFlight: InFlightSend?
  /// The plan last announced as an event, so each change of plan is announced once.
  var announced: SendPlan?
  var pendingIndex: [ChangeTarget: Int] = [:]
  /// The pending entry whose window opened first: kept up to date so the plan is O(1).
  var earliestPending: PendingChange?
  /// Android, gone to the background with a change pending: send it at this time, past the
  /// device throttle (SDK-FACTS). In memory: cleared by the send it starts.
  var backgroundFlushAt: Instant?
  /// When this process launched, for a profile whose interval lives in memory (iOS).
  var launchedAt: Instant?

  init(settings: MachineSettings, state: RegistrationState) {
    self.settings = settings
    self.state = state
    rebuildPendingIndex()
  }

  // MARK: Launch

  /// The first launch of an installation (R1.2, R3.1): `deviceID` is the random UUID the
  /// engine made for it, and the initial registration is due at once.
  public static func firstLaunch(
    settings: MachineSettings, deviceID: String, environment: DeviceEnvironment, now: Instant
  ) -> (RegistrationMachine, Step) {
    let device = DeviceFields(
      deviceID: deviceID, registrationId: deviceID.lowercased(), etAppId: settings.etAppId,
      platform: settings.platform, environment: environment)
    var machine = RegistrationMachine(
      settings: settings, state: RegistrationState(record: ContactRecord(device: device)))
    var step = Step()
    step.events.append(.launched(firstLaunch: true, deviceID: deviceID))
    let change = machine.recordChange(
      .initial, summary: "first launch: the whole record", now: now)
    step.events.append(.edited(change))
    machine.finish(&step, now: now)
    step.persist = true
    return (machine, step)
  }

  /// A later launch from the stored state (R1.4). Device fields that differ from the stored
  /// record are changes (R3.2); a send that was in flight at the crash is simply pending.
  public static func relaunch(
    settings: MachineSettings, state: RegistrationState, environment: DeviceEnvironment,
    now: Instant
  ) -> (RegistrationMachine, Step) {
    var machine = RegistrationMachine(settings: settings, state: state)
    var step = Step()
    step.events.append(.launched(firstLaunch: false, deviceID: state.record.device.deviceID))
    if settings.profile.intervalInMemory {
      // iOS keeps its interval and throttle in memory: a relaunch starts the backoff again
      // at 60 s and sends a changed record about a second after launch. The Retry-After date
      // is stored, so it stays (SDK-FACTS).
      machine.launchedAt = now
      machine.state.scheduler.lastAttemptAt = nil
      machine.state.scheduler.lastSuccessAt = nil
      machine.state.scheduler.retry = nil
    }
    var device = machine.state.record.device
    if device.etAppId != settings.etAppId {
      device.etAppId = settings.etAppId
      machine.state.record.device = device
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "etAppId"), summary: "etAppId = \(settings.etAppId)", now: now)))
    }
    if device.platform != settings.platform {
      machine.state.record.device.platform = settings.platform
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "platform"), summary: "platform = \(settings.platform.rawValue)",
            now: now)))
    }
    for field in SystemField.allCases {
      let value = SystemFieldValue.read(field, from: environment)
      guard value != SystemFieldValue.read(field, from: machine.state.record.device.environment)
      else { continue }
      SystemFieldValue.write(value, to: &machine.state.record.device.environment)
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, field.wireName), summary: "\(field.wireName) = \(value)",
            now: now)))
    }
    // hwid is not editable at run time, but a new model after a restore is a change too.
    if environment.hwid != machine.state.record.device.environment.hwid {
      machine.state.record.device.environment.hwid = environment.hwid
      step.events.append(
        .edited(
          machine.recordChange(
            ChangeTarget(.device, "hwid"), summary: "hwid = \(environment.hwid)", now: now)))
    }
    machine.finish(&step, now: now)
    step.persist = true
    return (machine, step)
  }

}
