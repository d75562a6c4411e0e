import Clocks
import Foundation
import RegistrationCore
import Synchronization
import Testing

/// A hand-set real clock for the scaled clock's arithmetic.
final class FakeRealTime: Sendable {
  private let seconds = Mutex<Double>(1000)
  var now: Double { seconds.withLock { $0 } }
  func pass(_ delta: Double) { seconds.withLock { $0 += delta } }
}

@Suite("clocks")
struct ClockTests {
  @Test("scaled clock: 60x runs a minute per second; pause stops it; jump moves it forward only")
  func scaled() {
    let real = FakeRealTime()
    let clock = ScaledClock(rate: 60, start: .zero, realNow: { real.now })
    real.pass(1)
    #expect(clock.now() == Instant(60))
    clock.setRate(0)
    real.pass(100)
    #expect(clock.now() == Instant(60))
    clock.setRate(3600)
    real.pass(0.5)
    #expect(clock.now() == Instant(1860))
    clock.jump(to: Instant(5000))
    #expect(clock.now() == Instant(5000))
    clock.jump(to: Instant(10))
    #expect(clock.now() == Instant(5000))
  }

  @Test("a paused scaled clock's sleeper wakes when time jumps past its deadline")
  func pausedSleeperWakesOnJump() async throws {
    let clock = ScaledClock(rate: 0, start: .zero)
    let sleeper = Task { try await clock.sleep(until: Instant(86_400)) }
    clock.jump(to: Instant(86_400))
    try await sleeper.value
    #expect(clock.now() >= Instant(86_400))
  }

  @Test("virtual clock: a sleeper wakes exactly when time is advanced past its deadline")
  func virtualSleeper() async throws {
    let clock = VirtualClock()
    let woke = Mutex<Instant?>(nil)
    let sleeper = Task {
      try await clock.sleep(until: Instant(30))
      woke.withLock { $0 = clock.now() }
    }
    clock.advance(to: Instant(10))
    clock.advance(to: Instant(30))
    try await sleeper.value
    #expect(woke.withLock { $0 } == Instant(30))
  }

  @Test("a cancelled sleeper returns at once")
  func cancelledSleeper() async {
    let clock = VirtualClock()
    let sleeper = Task { try await clock.sleep(until: Instant(1e9)) }
    sleeper.cancel()
    let result = await sleeper.result
    #expect(throws: CancellationError.self) { try result.get() }
  }
}
