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

  public var passed: Bool {
    results.count == plan.steps.count && results.allSatisfy { $0.verdict == .pass }
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

  public init(
    server: LocalEngagementServer, ask: @escaping @Sendable (QAStep, String) async -> Void,
    progress: @escaping @Sendable (QAProgress) -> Void = { _ in }
  ) {
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
    var bound: [QAPlan.DeviceChoice: String] = [:]
    var results: [QAStepResult] = []
    for step in plan.steps {
      if Task.isCancelled { break }
      progress(.started(step))
      let choice = step.device ?? plan.device
      let result = await run(step, choice: choice, bound: &bound, before: before)
      results.append(result)
      progress(.finished(result))
    }
    var device: DeviceWatch.Device?
    if let id = bound[plan.device] { device = await server.watchedDevice(id) }
    return QAReport(
      plan: plan, results: results, startedAt: startedAt, endedAt: clock.now(), device: device)
  }

  private func run(
    _ step: QAStep, choice: QAPlan.DeviceChoice, bound: inout [QAPlan.DeviceChoice: String],
    before: [String: Int]
  ) async -> QAStepResult {
    let clock = server.clock
    let started = clock.now()
    func result(_ verdict: QAVerdict, _ evidence: [String], _ id: String? = nil) -> QAStepResult {
      QAStepResult(
        step: step, verdict: verdict, evidence: evidence, deviceID: id ?? bound[choice],
        startedAt: started, endedAt: clock.now())
    }
    switch step.action {
    case .ask(let text):
      await ask(step, text)
      return result(.pass, ["the tester went on"])
    case .fault(let fault):
      await server.setFault(fault.fault(now: started))
      return result(.pass, ["the receiver now answers: \(fault.text)"])
    case .expect(let expectation):
      let deadline = started + (step.timeout ?? 300)
      var since: Int?
      if let id = bound[choice] { since = await server.watchedDevice(id)?.registrationCount }
      while true {
        let generation = server.watchChanged.generation
        if bound[choice] == nil, let id = await find(choice, before: before) { bound[choice] = id }
        if let id = bound[choice], let device = await server.watchedDevice(id) {
          let baseline = since ?? before[id] ?? 0
          if let decision = QAJudge.decide(
            expectation, device: device, since: baseline, runStart: before[id] ?? 0)
          {
            return result(decision.verdict, decision.evidence, id)
          }
          progress(.waiting(step, nextAllowed: device.nextSend?.at, deadline: deadline))
        } else {
          progress(.waiting(step, nextAllowed: nil, deadline: deadline))
        }
        if clock.now() >= deadline || Task.isCancelled {
          var evidence: [String] = []
          if let id = bound[choice], let device = await server.watchedDevice(id) {
            evidence = QAJudge.recent(device, after: since ?? before[id] ?? 0).map(QAJudge.line)
          }
          return result(.timedOut, evidence.isEmpty ? ["nothing arrived in time"] : evidence)
        }
        await clock.sleep(until: deadline, orUntil: server.watchChanged, movesPast: generation)
      }
    }
  }

  /// The device `choice` names, once it has registered.
  private func find(_ choice: QAPlan.DeviceChoice, before: [String: Int]) async -> String? {
    switch choice {
    case .id(let id): return await server.watchedDevice(id) == nil ? nil : id
    case .first:
      return await server.watchedDevices(newest: DeviceWatch.deviceLimit)
        .filter { $0.registrationCount > (before[$0.deviceID] ?? 0) }
        .min { $0.firstSeen < $1.firstSeen }?.deviceID
    }
  }
}
