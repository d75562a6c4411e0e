import EngagementServer
import Fleet
import InspectorUI
import RegistrationCore
import Session
import SessionValues
import SystemCalls

/// Runs the session's side of what the user asked for, one job after another in the order
/// asked, off the UI thread; each outcome comes back as a wake. It owns every task the
/// inspector starts for the user: quitting ends them all.
final class SessionWork: Sendable {
  enum Job: Sendable {
    case commands([Command])
    case jumpToNextDeadline
    case fields(deviceID: String)
    /// `B`: the device's debug bundle written to the state folder.
    case bundle(deviceID: String)
    /// `D`: the tenant's demographics read again.
    case refreshDemographics
    /// The Fleet view's fleet: these plans on one population, played from `startedAt`.
    case fleet([FleetPlan], startedAt: Instant)
  }

  private let jobs: AsyncStream<Job>.Continuation
  private let worker: Task<Void, Never>

  /// `receiver` is the receiving session itself, for `D` (`--tenant`) and `B` (a bundle,
  /// written into `folder`); nil for every other session.
  init(
    session: any Session, receiver: ReceiverSession? = nil, in folder: String? = nil,
    report: @escaping @Sendable (Wake) -> Void
  ) {
    let server = receiver?.server
    let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
    self.jobs = jobs
    worker = Task {
      // The fleet takes seconds: it runs beside the jobs as a child of this task, so a
      // command never waits behind it and quitting cancels it.
      await withTaskGroup(of: Void.self) { beside in
        for await job in stream {
          switch job {
          case .commands(let commands):
            var results: [CommandResult] = []
            for command in commands { results.append(await session.run(command)) }
            report(.message(.commandsFinished(results)))
          case .jumpToNextDeadline:
            report(.message(.jumped(to: await session.jumpToNextDeadline())))
          case .fields(let deviceID):
            report(.message(.fields(await session.fields(of: deviceID), deviceID: deviceID)))
          case .bundle(let deviceID):
            let (said, failed) = await BundleKey.write(
              receiver, deviceID: deviceID, folder: folder)
            report(.message(.notice(said, isError: failed)))
          case .refreshDemographics:
            if let notice = await TenantKey.refresh(server) {
              report(.message(.notice(notice, isError: true)))
            }
          case .fleet(let plans, let startedAt):
            beside.addTask { await Self.fleet(plans, startedAt: startedAt, report: report) }
          }
        }
        beside.cancelAll()
      }
    }
  }

  func submit(_ job: Job) { jobs.yield(job) }

  /// Runs what was asked before the user quit (an edit is never dropped), stops the fleet
  /// still computing, then returns: nothing the inspector started outlives it.
  func finish() async {
    jobs.finish()
    await worker.value
  }

  /// Each plan in turn; once cancelled, no plan more and nothing reported.
  private static func fleet(
    _ plans: [FleetPlan], startedAt: Instant, report: @Sendable (Wake) -> Void
  ) async {
    guard let first = plans.first else { return }
    var reports: [FleetReport] = []
    for plan in plans {
      guard !Task.isCancelled else { return }
      reports.append(await FleetRun.run(plan, cores: SystemCalls.onlineCores))
    }
    guard !Task.isCancelled else { return }
    report(.message(.fleetReady(FleetShow(plan: first, reports: reports, startedAt: startedAt))))
  }
}
