import RegistrationCore
import Synchronization

/// A generation counter that tasks can wait on: `fire()` wakes every waiter. The clocks use it
/// so that a sleeper notices when virtual time jumps or the speed of a scaled clock changes,
/// without polling.
public final class ChangeSignal: Sendable {
  private struct State {
    var generation = 0
    var nextID = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  private let state = Mutex(State())

  public init() {}

  public var generation: Int { state.withLock { $0.generation } }

  /// How many tasks wait on it now.
  public var waiting: Int { state.withLock { $0.waiters.count } }

  public func fire() {
    let waiters = state.withLock { state in
      state.generation += 1
      defer { state.waiters.removeAll() }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the generation differs from `seen`, or the task is cancelled.
  public func wait(after seen: Int) async {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // Checked under the lock: cancellation sets the flag before running the handler,
        // and the handler takes the same lock, so a waiter is never left behind.
        let resumeNow = state.withLock { state in
          if state.generation != seen || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}

extension EngineClock {
  /// Sleeps until `deadline` (for ever when nil) or until `signal` has moved past `generation`,
  /// whichever comes first, or until the task is cancelled. The one wait of every loop that
  /// runs on a clock: the engine's, the server's processing, the front's down-fault watch.
  public func sleep(
    until deadline: Instant?, orUntil signal: ChangeSignal, movesPast generation: Int
  )
    async
  {
    await withTaskGroup(of: Void.self) { group in
      if let deadline { group.addTask { try? await self.sleep(until: deadline) } }
      group.addTask { await signal.wait(after: generation) }
      await group.next()
      group.cancelAll()
    }
  }
}
