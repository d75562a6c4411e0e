import RegistrationCore
import SessionValues
import Synchronization

/// A live command's event lines, within a `LiveLineBudget`: each event's line is written at
/// once while the second's budget lasts; a second that held some is summed up in one line
/// shortly after it ends, by a task that runs only while something is held.
public final class LiveEventLines: Sendable {
  private struct State {
    var budget: LiveLineBudget
    var flush: Task<Void, Never>?
  }

  private let state: Mutex<State>
  private let format: @Sendable (RunEvent) -> String
  private let write: @Sendable (String) -> Void
  private let now: @Sendable () -> Instant
  private let sleep: @Sendable (Duration) async -> Void

  /// `now` is the wall clock the events are stamped with; `sleep` waits real time (a test's
  /// own in tests).
  public init(
    budget: LiveLineBudget, now: @escaping @Sendable () -> Instant,
    format: @escaping @Sendable (RunEvent) -> String,
    write: @escaping @Sendable (String) -> Void = Output.line,
    sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  ) {
    state = Mutex(State(budget: budget))
    self.format = format
    self.write = write
    self.now = now
    self.sleep = sleep
  }

  /// Writes `event`'s line, or counts it when its second's budget is spent. Lines are
  /// written under the lock, so they come out in the order the events did.
  public func append(_ event: RunEvent) {
    state.withLock { state in
      for line in state.budget.admit(event, line: { format(event) }) { write(line) }
      if state.budget.isHolding, state.flush == nil {
        state.flush = Task { [self] in await flushWhenDue() }
      }
    }
  }

  /// Says what is still held, whatever the time: before the command's last lines.
  public func finish() {
    let flush = state.withLock { state in
      if let summary = state.budget.summary(at: now(), force: true) { write(summary) }
      defer { state.flush = nil }
      return state.flush
    }
    flush?.cancel()
  }

  /// Returns once no summary waits to be written (for tests).
  public func settled() async {
    while let flush = state.withLock({ $0.flush }) { await flush.value }
  }

  private func flushWhenDue() async {
    while !Task.isCancelled {
      // Just past the end of the current second, when its summary can be said.
      let seconds = now().seconds
      let left = seconds.rounded(.down) + 1 - seconds
      await sleep(.milliseconds(Int((left.isFinite ? max(0, min(left, 1)) : 1) * 1000) + 20))
      let done = state.withLock { state in
        guard !Task.isCancelled else { return true }
        if let summary = state.budget.summary(at: now()) { write(summary) }
        guard !state.budget.isHolding else { return false }
        state.flush = nil
        return true
      }
      if done { return }
    }
  }
}
