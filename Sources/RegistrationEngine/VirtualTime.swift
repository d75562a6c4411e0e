import Clocks
import RegistrationCore

extension RegistrationEngine {
  /// Runs the engine in virtual time up to `target`: jumps the clock straight to each deadline,
  /// ticks, waits for the answer, and repeats. Deterministic: nothing runs concurrently.
  /// Sends held by a transport that never answers would stall this; the in-process transports
  /// answer at once.
  public func advance(_ clock: VirtualClock, to target: Instant) async throws {
    while let deadline = nextDeadline, deadline <= target {
      clock.advance(to: deadline)
      try tick()
      await settle()
    }
    clock.advance(to: target)
  }
}
