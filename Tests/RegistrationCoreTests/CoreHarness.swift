import Foundation
import RegistrationCore

/// Drives the pure machine in virtual time: jumps from deadline to deadline and answers each
/// send at once with whatever `respond` says.
struct CoreHarness {
  var machine: RegistrationMachine
  var now: Instant = .zero
  var events: [TimedEvent] = []
  /// The device as it launched, for a relaunch.
  let environment: DeviceEnvironment
  var sends: [InFlightSend] = []
  var respond: (InFlightSend) -> SendResult = { _ in .answered(status: 201, retryAfter: nil) }

  static let appID = "995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47"
  static let deviceID = "1EB8C21D-CA72-41AC-930D-CEC9A311D699"

  static func settings(
    platform: Platform = .iOS, delay: Bool = false, debug: Bool = false, token: Bool = true,
    profile: SDKProfile = .documented
  ) -> MachineSettings {
    MachineSettings(
      platform: platform, etAppId: appID, delayRegistrationUntilContactKeyIsSet: delay,
      debugBuild: debug, hasAccessToken: token, profile: profile)
  }

  init(settings: MachineSettings = CoreHarness.settings(), environment: DeviceEnvironment? = nil) {
    let env = environment ?? .demo(settings.platform, profile: settings.profile)
    let (machine, step) = RegistrationMachine.firstLaunch(
      settings: settings, deviceID: Self.deviceID, environment: env, now: .zero)
    self.machine = machine
    self.environment = env
    record(step)
  }

  /// Launches, then lets the initial registration go out and be acknowledged at t = 0.
  static func launchedAndRegistered(
    settings: MachineSettings = CoreHarness.settings()
  ) -> CoreHarness {
    var harness = CoreHarness(settings: settings)
    harness.advance(to: .zero)
    return harness
  }

  @discardableResult
  mutating func edit(_ edit: Edit) -> EditOutcome {
    let (outcome, step) = machine.apply(edit, now: now)
    record(step)
    return outcome
  }

  @discardableResult
  mutating func edit(_ edit: Edit, at time: Double) -> EditOutcome {
    advance(to: Instant(time))
    return self.edit(edit)
  }

  /// Processes every deadline up to `target` in order, then sets the clock to `target`.
  mutating func advance(to target: Instant) {
    while let deadline = machine.nextDeadline, deadline <= target {
      now = max(now, deadline)
      let step = machine.tick(now: now)
      record(step)
      guard let send = step.send else {
        // Android answers a too-early send itself: no send, but the alarm moved the deadline.
        if let next = machine.nextDeadline, next > now { continue }
        break
      }
      sends.append(send)
      record(machine.sendFinished(sendID: send.id, result: respond(send), now: now))
    }
    now = max(now, target)
  }

  mutating func advance(to seconds: Double) { advance(to: Instant(seconds)) }

  /// Starts the due send but leaves it in flight.
  mutating func startDueSend() -> InFlightSend? {
    let step = machine.tick(now: now)
    record(step)
    if let send = step.send { sends.append(send) }
    return step.send
  }

  mutating func finish(_ send: InFlightSend, with result: SendResult) {
    record(machine.sendFinished(sendID: send.id, result: result, now: now))
  }

  private mutating func record(_ step: Step) {
    events += step.events.map { TimedEvent(at: now, event: $0) }
  }

  var sentCount: Int { events.filter { $0.event.type == "sent" }.count }
  var failedCount: Int { events.filter { $0.event.type == "failed" }.count }
  var sendTimes: [Double] { sends.map(\.startedAt.seconds) }
  var lastPayload: RegistrationPayload? { sends.last?.payload }
  var warningCodes: [WarningCode] {
    events.compactMap { if case .warning(let w) = $0.event { w.code } else { nil } }
  }
}

extension EditOutcome {
  var rejection: Rejection? {
    if case .rejected(let rejection) = self { return rejection }
    return nil
  }
  var isUnchanged: Bool {
    if case .unchanged = self { return true }
    return false
  }
}

/// The repository's Tests/Fixtures folder, found from this source file.
func fixtureURL(_ name: String) -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name)
}
