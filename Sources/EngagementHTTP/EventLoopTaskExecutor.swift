import NIOCore

/// Runs a connection's task on the event loop that reads and writes its socket. Without it,
/// each request part crosses from the loop's thread to Swift's pool and each answer back:
/// two thread wake-ups a request, which cost more than the rest of a small request's work.
/// Default actors follow a task's executor preference (SE-0417), so the server's actor runs
/// there too, and only waits for a thread when another connection holds it.
final class EventLoopTaskExecutor: TaskExecutor {
  let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
