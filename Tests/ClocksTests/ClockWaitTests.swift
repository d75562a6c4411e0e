import Clocks
import RegistrationCore
import Synchronization
import Testing

/// The one wait every loop on a clock uses: until its next deadline, or a change.
@Suite("waiting on a clock", .timeLimit(.minutes(10)))
struct ClockWaitTests {
  @Test("a virtual clock's wait ends when time reaches the deadline, not before")
  func deadline() async {
    let clock = VirtualClock()
    let signal = ChangeSignal()
    let ended = Mutex<Instant?>(nil)
    let waiting = Task {
      await clock.sleep(until: Instant(60), orUntil: signal, movesPast: signal.generation)
      ended.withLock { $0 = clock.now() }
    }
    for step in [30.0, 59.999] {
      // Wait until the sleeper is asleep (again), or has ended: never by a timer.
      while clock.sleepers == 0 && ended.withLock({ $0 }) == nil { await Task.yield() }
      let generation = clock.sleepers
      clock.advance(to: Instant(step))
      // The advance woke it; it must go back to sleep, not end.
      while clock.sleepers < generation && ended.withLock({ $0 }) == nil { await Task.yield() }
      #expect(ended.withLock { $0 } == nil, "ended at \(step), before the deadline")
    }
    clock.advance(to: Instant(60))
    await waiting.value
    #expect(ended.withLock { $0 } == Instant(60))
  }

  @Test("a change ends a wait with no deadline; a change already past ends it at once")
  func change() async {
    let clock = VirtualClock()
    let signal = ChangeSignal()
    let seen = signal.generation
    let waiting = Task { await clock.sleep(until: nil, orUntil: signal, movesPast: seen) }
    signal.fire()
    await waiting.value
    // The generation moved before the wait began: it does not wait at all.
    await clock.sleep(until: nil, orUntil: signal, movesPast: seen)
    #expect(signal.generation == seen + 1)
  }

  @Test("cancelling the task ends the wait, with the time and the signal as they were")
  func cancelled() async {
    let signal = ChangeSignal()
    let clock = VirtualClock()
    let waiting = Task {
      await clock.sleep(until: Instant(60), orUntil: signal, movesPast: signal.generation)
      return Task.isCancelled
    }
    waiting.cancel()
    #expect(await waiting.value, "it ended because it was cancelled")
    #expect(clock.now() == .zero && signal.generation == 0)
    #expect(clock.sleepers == 0 && signal.waiting == 0, "no sleeper is left behind")
  }

  @Test("the earliest of some deadlines, and the latest")
  func merge() {
    #expect(Instant.earliest(nil, Instant(5), Instant(3)) == Instant(3))
    #expect(Instant.earliest(nil, nil) == nil)
    #expect(Instant.latest(Instant(5), nil, Instant(3)) == Instant(5))
    #expect(Instant.latest() == nil)
  }
}
