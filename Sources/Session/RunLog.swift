import EngagementCore
import RegistrationCore
import SessionValues
import Synchronization

/// Thread-safe, ordered record of what a run did. A live session runs for days: with a `limit`
/// only the newest events are kept (the counts stay exact), so its memory does not grow. A
/// scenario is finite and keeps everything, since its expectations read the whole run.
public final class RunLog: Sendable {
  private struct State {
    var events: [RunEvent] = []
    var counts: [EventKind: Int] = [:]
    var observers: [@Sendable (RunEvent) -> Void] = []
  }

  /// How many events a live session keeps.
  public static let liveLimit = 10_000

  private let state = Mutex(State())
  private let limit: Int?

  public init(limit: Int? = nil, listener: (@Sendable (RunEvent) -> Void)? = nil) {
    self.limit = limit.map { max(1, $0) }
    if let listener { onAppend(listener) }
  }

  /// Calls `observer` with every event appended from now on.
  public func onAppend(_ observer: @escaping @Sendable (RunEvent) -> Void) {
    state.withLock { $0.observers.append(observer) }
  }

  /// The events kept: all of them, or the newest `limit`.
  public var all: [RunEvent] { state.withLock { $0.events } }

  public func append(_ event: RunEvent) {
    let limit = self.limit
    let observers = state.withLock { state in
      state.events.append(event)
      state.counts[event.kind, default: 0] += 1
      // Trimmed a quarter at a time, so appending stays cheap on average.
      if let limit, state.events.count > limit + limit / 4 {
        state.events.removeFirst(state.events.count - limit)
      }
      return state.observers
    }
    for observer in observers { observer(event) }
  }

  /// How many events of `kind` the run has had, trimmed ones included.
  public func count(_ kind: EventKind) -> Int { state.withLock { $0.counts[kind] ?? 0 } }

  public func last(_ kind: EventKind) -> RunEvent? {
    state.withLock { $0.events.last { $0.kind == kind } }
  }
}
