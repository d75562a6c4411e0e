import EngagementCore
import SessionValues
import Synchronization

/// Builds and hands over a snapshot after changes. A burst of changes while one is being built
/// gives one more snapshot, not one per change: the signal holds at most one waiting wake.
/// With a `minimumInterval`, snapshots come at most that often (a receiver under a flood of
/// registrations builds about ten a second, whatever the rate); the first change after a
/// quiet spell is still handed over at once.
final class SnapshotPublisher: Sendable {
  private typealias Watcher = @Sendable (SessionSnapshot) -> Void
  private struct State {
    var watcher: Watcher?
    var loop: Task<Void, Never>?
  }
  private let state = Mutex(State())
  private let signal: AsyncStream<Void>.Continuation
  private let signals: AsyncStream<Void>

  private let minimumInterval: Duration
  /// How the interval is waited out: the real clock, or a test's own.
  private let pause: @Sendable (Duration) async -> Void

  init(
    minimumInterval: Duration = .zero,
    pause: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  ) {
    self.minimumInterval = minimumInterval
    self.pause = pause
    (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  func start(_ build: @escaping @Sendable () async -> SessionSnapshot?) {
    let (signals, interval, pause) = (self.signals, minimumInterval, self.pause)
    let loop = Task { [weak self] in
      for await _ in signals {
        guard let snapshot = await build() else { return }
        self?.deliver(snapshot)
        // Changes meanwhile wait in the signal (one wake for all of them).
        if interval > .zero { await pause(interval) }
      }
    }
    state.withLock { $0.loop = loop }
  }

  func watch(_ watcher: @escaping @Sendable (SessionSnapshot) -> Void) {
    state.withLock { $0.watcher = watcher }
  }

  /// Something changed; without a watcher nothing is built.
  func changed() {
    guard state.withLock({ $0.watcher != nil }) else { return }
    signal.yield()
  }

  private func deliver(_ snapshot: SessionSnapshot) {
    state.withLock { $0.watcher }?(snapshot)
  }

  func stop() {
    signal.finish()
    state.withLock {
      $0.loop?.cancel()
      $0.watcher = nil
    }
  }
}
