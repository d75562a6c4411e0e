import Session
import SessionValues

/// Runs the session's side of what the user asked for, one job after another in the order
/// asked, off the UI thread; each outcome comes back as a wake.
final class SessionWork: Sendable {
  enum Job: Sendable {
    case commands([Command])
    case jumpToNextDeadline
    case fields(deviceID: String)
  }

  private let jobs: AsyncStream<Job>.Continuation
  private let worker: Task<Void, Never>

  init(session: any Session, report: @escaping @Sendable (Wake) -> Void) {
    let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
    self.jobs = jobs
    worker = Task {
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
        }
      }
    }
  }

  func submit(_ job: Job) { jobs.yield(job) }

  /// Runs what was asked before the user quit (an edit is never dropped), then returns.
  func finish() async {
    jobs.finish()
    await worker.value
  }
}
