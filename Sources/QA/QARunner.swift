import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore

/// One step's outcome, with the registrations that decided it.
public struct QAStepResult: Sendable {
  public var step: QAStep
  public var verdict: QAVerdict
  public var evidence: [String]
  public var deviceID: String?
  public var startedAt: Instant
  public var endedAt: Instant
}

/// What a run proved: each step's verdict, the device and its SDK, when it ran.
public struct QAReport: Sendable {
  public var plan: QAPlan
  public var results: [QAStepResult]
  public var startedAt: Instant
  public var endedAt: Instant
  public var device: DeviceWatch.Device?
  /// What the plan knew of the app's state (`app: stays-open`): the timeline is judged with it.
  public var knowledge: QAKnowledge
  /// Where and with what it ran, for the ticket: set by the tool that ran it.
  public var context = QARunContext()

  public init(
    plan: QAPlan, results: [QAStepResult], startedAt: Instant, endedAt: Instant,
    device: DeviceWatch.Device?, knowledge: QAKnowledge = QAKnowledge()
  ) {
    self.plan = plan
    self.results = results
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.device = device
    self.knowledge = knowledge
  }

  public var passed: Bool {
    results.count == plan.steps.count && results.allSatisfy { $0.verdict == .pass }
  }

  /// True when the run was stopped before its end (Ctrl-C): a step interrupted, or not run.
  public var interrupted: Bool {
    results.contains { $0.verdict == .interrupted || $0.verdict == .notRun }
  }
}

/// What a report names besides the steps: the build that judged, where it listened, the app it
/// accepted, the capture kept.
public struct QARunContext: Sendable {
  public var version = RegScopeVersion.current
  public var receiver: String?
  public var app: String?
  public var har: String?

  public init(receiver: String? = nil, app: String? = nil, har: String? = nil) {
    self.receiver = receiver
    self.app = app
    self.har = har
  }
}

/// What the runner tells whoever watches it.
public enum QAProgress: Sendable {
  case started(QAStep)
  /// Waiting for the device: the earliest its SDK may register next, if known.
  case waiting(QAStep, nextAllowed: Instant?, deadline: Instant)
  case finished(QAStepResult)
}

/// Runs a plan against the devices a receiver (or relay) sees, on the server's clock: steps in
/// order, each until it is decided or its time is up. The tester is asked through `ask`, which
/// returns when the tester is done (at once with `--yes`); faults go to the server.
public struct QARunner: Sendable {
  public let server: LocalEngagementServer
  public let ask: @Sendable (QAStep, String) async -> Void
  public let progress: @Sendable (QAProgress) -> Void
  /// Which findings fail a `no-violation` step.
  public var gate = FindingGate()
  /// `--yes`: nobody is asked; the report says so rather than that a tester acted.
  public var assumeAsked = false

  public init(
    server: LocalEngagementServer, ask: @escaping @Sendable (QAStep, String) async -> Void,
    progress: @escaping @Sendable (QAProgress) -> Void = { _ in }, gate: FindingGate = FindingGate()
  ) {
    self.gate = gate
    self.server = server
    self.ask = ask
    self.progress = progress
  }

  public func run(_ plan: QAPlan) async -> QAReport {
    let clock = server.clock
    let startedAt = clock.now()
    // What each device had before the plan began: "the first that registers" is the first
    // to register after this.
    let before = Dictionary(
      uniqueKeysWithValues: await server.watchedDevices(newest: DeviceWatch.deviceLimit).map {
        ($0.deviceID, $0.registrationCount)
      })
    var run = RunState(before: before)
    var results: [QAStepResult] = []
    for step in plan.steps {
      if Task.isCancelled { break }
      progress(.started(step))
      let choice = step.device ?? plan.device
      let result = await self.run(step, choice: choice, state: &run)
      results.append(result)
      progress(.finished(result))
    }
    // Stopped early: every step not reached is said so, not left out. Stopped between two
    // steps, the next is the one the stop interrupted: a stopped run always has one, and is
    // never a clean run in JUnit.
    let stoppedAt = clock.now()
    for step in plan.steps.dropFirst(results.count) {
      let first = !results.contains { $0.verdict == .interrupted }
      results.append(
        QAStepResult(
          step: step, verdict: first ? .interrupted : .notRun,
          evidence: [
            first
              ? "the run was stopped as this step was to begin"
              : "the run was stopped before this step"
          ],
          deviceID: nil, startedAt: stoppedAt, endedAt: stoppedAt))
    }
    run.knowledge.close(at: stoppedAt)
    var device: DeviceWatch.Device?
    if let id = run.bound[plan.device] { device = await server.watchedDevice(id) }
    return QAReport(
      plan: plan, results: results, startedAt: startedAt, endedAt: clock.now(), device: device,
      knowledge: run.knowledge)
  }

  /// What a run carries from step to step.
  struct RunState {
    /// Each device's registrations before the plan began.
    var before: [String: Int]
    var bound: [QAPlan.DeviceChoice: String] = [:]
    /// The bound devices' registrations when the latest ask or fault began: an expectation
    /// is judged on what came since, so what the app sent while the tester acted counts,
    /// however long the tester took to go on.
    var window: [String: Int] = [:]
    var knowledge = QAKnowledge()

    func since(_ id: String) -> Int { window[id] ?? before[id] ?? 0 }
  }

  private func run(
    _ step: QAStep, choice: QAPlan.DeviceChoice, state: inout RunState
  ) async -> QAStepResult {
    let clock = server.clock
    let started = clock.now()
    let bound = state.bound
    func result(_ verdict: QAVerdict, _ evidence: [String], _ id: String? = nil) -> QAStepResult {
      QAStepResult(
        step: step, verdict: verdict, evidence: evidence, deviceID: id ?? bound[choice],
        startedAt: started, endedAt: clock.now())
    }
    switch step.action {
    case .ask, .fault:
      // A new window: what the app sends from now on answers this step's instruction.
      state.window = [:]
      for id in Set(state.bound.values) {
        state.window[id] = await server.watchedDevice(id)?.registrationCount
      }
    case .expect: break
    }
    switch step.action {
    case .ask(let text):
      state.knowledge.ask(step, at: started)
      await ask(step, text)
      if Task.isCancelled { return result(.interrupted, ["the run was stopped during the ask"]) }
      return result(
        .pass, [assumeAsked ? "not asked: --yes goes straight on" : "the tester went on"])
    case .fault(let fault):
      await server.setFault(fault.fault(now: started))
      return result(.pass, ["the receiver now answers: \(fault.text)"])
    case .expect(let expectation):
      let deadline = started + (step.timeout ?? 300)
      while true {
        let generation = server.changes.signal(.watched).generation
        if state.bound[choice] == nil, let id = await find(choice, before: state.before) {
          state.bound[choice] = id
        }
        if let id = state.bound[choice], let device = await server.watchedDevice(id) {
          if let decision = QAJudge.decide(
            expectation, device: device, since: state.since(id), runStart: state.before[id] ?? 0,
            gate: gate, knowledge: state.knowledge)
          {
            return result(decision.verdict, decision.evidence, id)
          }
          progress(.waiting(step, nextAllowed: device.nextSend?.at, deadline: deadline))
        } else {
          progress(.waiting(step, nextAllowed: nil, deadline: deadline))
        }
        if clock.now() >= deadline || Task.isCancelled {
          return await undecided(
            step, expectation, choice: choice, state: state, started: started,
            result: { result($0, $1, state.bound[choice]) })
        }
        await clock.sleep(
          until: deadline, orUntil: server.changes.signal(.watched), movesPast: generation)
      }
    }
  }

  /// A wait that ended undecided: timed out, or interrupted (Ctrl-C) with what it had seen.
  private func undecided(
    _ step: QAStep, _ expectation: QAExpectation, choice: QAPlan.DeviceChoice, state: RunState,
    started: Instant, result: (QAVerdict, [String]) -> QAStepResult
  ) async -> QAStepResult {
    var evidence: [String] = []
    var hint: String?
    var device: DeviceWatch.Device?
    if let id = state.bound[choice], let found = await server.watchedDevice(id) {
      device = found
      evidence = QAJudge.recent(found, after: state.since(id)).flatMap {
        QAJudge.detailed($0, state.knowledge)
      }
    }
    let waited = DurationText.describe((server.clock.now() - started).rounded())
    if !Task.isCancelled, let device {
      let said = QAJudge.atDeadline(expectation, device: device, knowledge: state.knowledge)
      if let decision = said.decision { return result(decision.verdict, decision.evidence) }
      hint = said.why
    }
    if Task.isCancelled {
      // What the wait had seen: a lead acts on "no registration arrived" (the app is not
      // pointed at the receiver) differently from one that did not decide it.
      let seen =
        !evidence.isEmpty
        ? evidence
        : state.bound[choice] == nil
          ? [await nothingTaken(waited: waited, before: state.before)]
          : ["in \(waited) of waiting the app sent nothing that decides it"]
      return result(.interrupted, ["the run was stopped before this step was decided"] + seen)
    }
    return result(
      .timedOut,
      ["expected: \(expectation.summary), within \(DurationText.describe(step.timeout ?? 300))"]
        + (evidence.isEmpty
          ? ["actual: nothing arrived in time"] : ["actual: not decided by:"] + evidence)
        + (hint.map { ["why: \($0)"] } ?? []))
  }

  /// Why no device was found by a stopped wait: the receiver refused what came (the newest
  /// refusal, its reason and fix), or nothing came at all.
  private func nothingTaken(waited: String, before: [String: Int]) async -> String {
    let refused = await server.watchedDevices(newest: DeviceWatch.deviceLimit).first {
      $0.registrationCount > (before[$0.deviceID] ?? 0) && $0.lastRefusal != nil
    }
    if let refused, let refusal = refused.lastRefusal {
      return
        "in \(waited) of waiting the receiver took no registration: it refused \(TerminalText.escaped(refused.deviceID)) (\(refusal.status)), \(TerminalText.escaped(refusal.summary))"
    }
    return
      "in \(waited) of waiting no registration from the app reached the receiver: is the app pointed at it?"
  }

  /// The device `choice` names, once it has registered.
  private func find(_ choice: QAPlan.DeviceChoice, before: [String: Int]) async -> String? {
    switch choice {
    case .id(let id): return await server.watchedDevice(id) == nil ? nil : id
    case .first:
      // The first device with a registration the server took: a refused request (or a
      // client's stand-in) is not the app under test registering.
      return await server.watchedDevices(newest: DeviceWatch.deviceLimit)
        .filter { device in
          device.registrationCount > (before[device.deviceID] ?? 0)
            && QAJudge.recent(device, after: before[device.deviceID] ?? 0).contains {
              !$0.refused
            }
        }
        .min { $0.firstSeen < $1.firstSeen }?.deviceID
    }
  }
}
