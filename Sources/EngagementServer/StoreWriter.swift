import Clocks
import Dispatch
import EngagementCore
import Synchronization

/// Writes the group commit's batches to the store off the server's actor, one after another
/// in the order they were handed over. Written on the actor, a transaction of a few hundred
/// rows held it for a millisecond or more, and every request on every event loop waited
/// behind it: under a fleet the two loops' threads sat idle a tenth of the time.
final class StoreWriter: Sendable {
  private let store: ServerStore
  /// Serial: batches are written in the order the actor handed them over.
  private let queue = DispatchQueue(label: "regscope.server.store-writer")
  /// What the newest write's failure said; nil once one succeeds.
  private let problem = Mutex<String?>(nil)
  /// Batches handed over and not yet written.
  private let outstanding = Atomic<Int>(0)
  /// Past this many batches waiting, the server waits for the store (`backlogged`), as it did
  /// when it wrote them itself: a store slower than the requests must not fill the memory.
  static let backlogLimit = 4
  /// Told `.stored` after each batch's transaction.
  private let changes: ServerChanges

  init(store: ServerStore, changes: ServerChanges) {
    self.store = store
    self.changes = changes
  }

  var storeProblem: String? { problem.withLock { $0 } }

  /// Whether the store has fallen `backlogLimit` batches behind.
  var backlogged: Bool { outstanding.load(ordering: .relaxed) >= Self.backlogLimit }

  /// Queues one transaction for `batch` (the changes of many requests, gathered).
  func write(_ batch: EngagementServerCore.Changes, windowStart: Int?) {
    outstanding.add(1, ordering: .relaxed)
    queue.async { [self] in
      defer { outstanding.subtract(1, ordering: .relaxed) }
      do {
        try store.apply(batch, windowStart: windowStart)
        problem.withLock { $0 = nil }
      } catch {
        // The core keeps serving from memory; the problem is shown, not hidden.
        problem.withLock { $0 = "\(error)" }
      }
      changes.send(.stored)
    }
  }

  /// Returns once every batch handed over so far is written.
  func drained() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      queue.async { done.resume() }
    }
  }

  /// The same, holding the calling thread: for a read of the store that must see every
  /// change (rare: a payload no longer kept in memory), where the caller cannot suspend.
  func drainedNow() { queue.sync {} }
}
