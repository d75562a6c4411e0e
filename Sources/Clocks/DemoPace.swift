import Foundation
import RegistrationCore
import Synchronization

/// How fast a demo's virtual clock is walked for the eye. The demo runs on a virtual clock, as
/// `regctl run` does, so every decision and every check is the same; only the walk between
/// them is paced in wall time. A busy machine makes the walk slower, never the result wrong.
public final class DemoPace: Sendable {
  private struct State {
    var rate: Double
    var skips = 0
    var proceeds = 0
    var finished = false
  }

  private let state: Mutex<State>
  private let fastForwardWatcher = Mutex<(@Sendable (Double) -> Void)?>(nil)
  private let changes = ChangeSignal()
  /// `--step`: a caption waits for `proceed()` (Space) instead of a few seconds.
  public let holdsForKey: Bool
  /// Wall seconds between two moves of the clock while it walks.
  public static let frame: Double = 0.05
  /// Wall seconds a quiet stretch (nothing due, no step) may take at most: a longer one is
  /// fast-forwarded to just before the next thing that happens.
  public static let quietLimit: Double = 3
  /// Wall seconds left before the next thing after a fast-forward, so it is seen coming.
  public static let leadIn: Double = 1.5
  /// Wall seconds a caption stays before the demo goes on (at any speed).
  public let captionHold: Double
  public static let defaultCaptionHold: Double = 3

  public init(rate: Double, holdsForKey: Bool = false, captionHold: Double = defaultCaptionHold) {
    state = Mutex(State(rate: max(0, rate)))
    self.holdsForKey = holdsForKey
    self.captionHold = captionHold
  }

  /// Virtual seconds per wall second; 0 while paused.
  public var rate: Double { state.withLock { $0.rate } }

  public func setRate(_ rate: Double) {
    state.withLock { $0.rate = max(0, rate) }
    changes.fire()
  }

  /// The demo's script has ended: the clock is no longer walked for it, and `n` moves it on
  /// itself (`DeviceSession.jumpToNextDeadline`) to what is still due.
  public func finish() {
    state.withLock { $0.finished = true }
    changes.fire()
  }

  public var isFinished: Bool { state.withLock { $0.finished } }

  /// `n`: go straight to the next thing due, however far.
  public func skipToNext() {
    state.withLock { $0.skips += 1 }
    changes.fire()
  }

  /// Told the virtual seconds skipped each time a quiet stretch is fast-forwarded.
  public func whenFastForwarding(_ watcher: @escaping @Sendable (Double) -> Void) {
    fastForwardWatcher.withLock { $0 = watcher }
  }

  /// Whether a skip was asked for since the last call.
  public func takeSkip() -> Bool {
    state.withLock { state in
      defer { state.skips = 0 }
      return state.skips > 0
    }
  }

  /// Space with `--step`: the caption on screen has been read.
  public func proceed() {
    state.withLock { $0.proceeds += 1 }
    changes.fire()
  }

  /// Where the clock goes in the next frame, from `now` towards `target` (the next step), with
  /// `nextDue` the next deadline of the engine or the server: one frame's worth at the rate,
  /// or, after a quiet stretch longer than `quietLimit`, to just before what comes next.
  public func nextMove(from now: Instant, target: Instant, nextDue: Instant?) -> Instant {
    let goal = Instant.earliest(nextDue.map { max($0, now) }, target) ?? target
    if takeSkip() { return goal }
    let rate = self.rate
    guard rate > 0 else { return now }
    let quietWall = (goal - now) / rate
    if quietWall > Self.quietLimit {
      let move = min(goal, max(now + rate * Self.frame, goal - rate * Self.leadIn))
      let skipped = move - now
      fastForwardWatcher.withLock { $0 }?(skipped)
      return move
    }
    return min(goal, now + rate * Self.frame)
  }

  /// Waits one frame of wall time, less when the pace changes; while paused, until it does.
  public func waitFrame() async throws {
    let generation = changes.generation
    if rate > 0 {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await Task.sleep(for: .seconds(Self.frame)) }
        group.addTask { await self.changes.wait(after: generation) }
        await group.next()
        group.cancelAll()
      }
    } else {
      await changes.wait(after: generation)
    }
    try Task.checkCancellation()
  }

  /// Holds a caption long enough to read: `captionHold` seconds of wall time (longer while
  /// paused), or, with `--step`, until `proceed()`. `n` cuts it short.
  public func holdCaption() async throws {
    let proceedsBefore = state.withLock { $0.proceeds }
    var held: Double = 0
    while true {
      try Task.checkCancellation()
      let (proceeds, rate, skips) = state.withLock { ($0.proceeds, $0.rate, $0.skips) }
      if skips > 0 || proceeds != proceedsBefore { return }
      if !holdsForKey && held >= captionHold { return }
      let generation = changes.generation
      let wait = holdsForKey ? nil : (rate > 0 ? captionHold - held : nil)
      let started = ContinuousClock.now
      await withTaskGroup(of: Void.self) { group in
        if let wait { group.addTask { try? await Task.sleep(for: .seconds(wait)) } }
        group.addTask { await self.changes.wait(after: generation) }
        await group.next()
        group.cancelAll()
      }
      if rate > 0 {
        let elapsed = ContinuousClock.now - started
        held += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      }
    }
  }
}
