import Foundation
import RegistrationCore
import Synchronization

/// The one seam through which the engine learns the time (DESIGN: time as a dependency).
public protocol EngineClock: Sendable {
  func now() -> Instant
  /// Suspends until `deadline` on this clock. Throws `CancellationError` when cancelled.
  func sleep(until deadline: Instant) async throws
}

/// Wall-clock time: seconds since the Unix epoch.
public struct SystemClock: EngineClock {
  public init() {}

  public func now() -> Instant { Instant(Date().timeIntervalSince1970) }

  public func sleep(until deadline: Instant) async throws {
    let remaining = deadline - now()
    if remaining > 0 { try await Task.sleep(for: .seconds(remaining)) }
  }
}

/// Real time run faster or slower (a demo at 60x), pausable (rate 0), and able to jump ahead
/// to a deadline. Changing the rate or jumping wakes every sleeper so it can re-measure.
public final class ScaledClock: EngineClock {
  private struct Timeline {
    var realOrigin: Double
    var scaledOrigin: Double
    var rate: Double

    func scaled(atReal real: Double) -> Double { scaledOrigin + (real - realOrigin) * rate }
  }

  private let timeline: Mutex<Timeline>
  private let changes = ChangeSignal()
  private let realNow: @Sendable () -> Double

  /// - Parameters:
  ///   - rate: scaled seconds per real second; 0 pauses.
  ///   - start: the scaled time now; defaults to the wall clock.
  public init(
    rate: Double, start: Instant? = nil,
    realNow: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.realNow = realNow
    let real = realNow()
    timeline = Mutex(
      Timeline(realOrigin: real, scaledOrigin: start?.seconds ?? real, rate: max(0, rate)))
  }

  public var rate: Double { timeline.withLock { $0.rate } }

  public func now() -> Instant {
    let real = realNow()
    return Instant(timeline.withLock { $0.scaled(atReal: real) })
  }

  public func setRate(_ rate: Double) {
    let real = realNow()
    timeline.withLock { line in
      line = Timeline(realOrigin: real, scaledOrigin: line.scaled(atReal: real), rate: max(0, rate))
    }
    changes.fire()
  }

  /// Moves time forward to `instant` at once (never backward).
  public func jump(to instant: Instant) {
    let real = realNow()
    timeline.withLock { line in
      let current = line.scaled(atReal: real)
      line = Timeline(
        realOrigin: real, scaledOrigin: max(current, instant.seconds), rate: line.rate)
    }
    changes.fire()
  }

  public func sleep(until deadline: Instant) async throws {
    while true {
      try Task.checkCancellation()
      let generation = changes.generation
      let (remaining, rate) = timeline.withLock { line in
        (deadline.seconds - line.scaled(atReal: realNow()), line.rate)
      }
      if remaining <= 0 { return }
      let realWait = rate > 0 ? remaining / rate : nil
      await withTaskGroup(of: Void.self) { group in
        if let realWait {
          group.addTask { try? await Task.sleep(for: .seconds(realWait)) }
        }
        group.addTask { await self.changes.wait(after: generation) }
        await group.next()
        group.cancelAll()
      }
    }
  }
}

/// Virtual time: it moves only when told to, straight to the next deadline, so a 30-day
/// outage runs in milliseconds and every run is deterministic.
public final class VirtualClock: EngineClock {
  private let current: Mutex<Instant>
  private let changes = ChangeSignal()

  public init(start: Instant = .zero) { current = Mutex(start) }

  public func now() -> Instant { current.withLock { $0 } }

  /// Sets the time to `instant` (never backward) and wakes sleepers whose deadline passed.
  public func advance(to instant: Instant) {
    current.withLock { $0 = max($0, instant) }
    changes.fire()
  }

  public func advance(by seconds: Double) { advance(to: now() + seconds) }

  /// How many sleepers wait for a later time: what a test watches to know a sleeper has seen
  /// an advance and gone back to waiting.
  public var sleepers: Int { changes.waiting }

  public func sleep(until deadline: Instant) async throws {
    while true {
      try Task.checkCancellation()
      let generation = changes.generation
      if now() >= deadline { return }
      await changes.wait(after: generation)
    }
  }
}
