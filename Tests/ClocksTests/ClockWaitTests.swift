import Clocks
import RegistrationCore
import Testing

/// The one wait every loop on a clock uses: until its next deadline, or a change.
@Suite("waiting on a clock", .timeLimit(.minutes(1)))
struct ClockWaitTests {
  @Test("a virtual clock's wait ends when time reaches the deadline, not before")
  func deadline() async {
    let clock = VirtualClock()
    let signal = ChangeSignal()
    let waiting = Task {
      await clock.sleep(until: Instant(60), orUntil: signal, movesPast: signal.generation)
      return clock.now()
    }
    clock.advance(to: Instant(30))
    clock.advance(to: Instant(60))
    #expect(await waiting.value == Instant(60))
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

  @Test("cancelling the task ends the wait")
  func cancelled() async {
    let signal = ChangeSignal()
    let waiting = Task {
      await VirtualClock().sleep(until: nil, orUntil: signal, movesPast: signal.generation)
    }
    waiting.cancel()
    await waiting.value
  }

  @Test("the earliest of some deadlines, and the latest")
  func merge() {
    #expect(Instant.earliest(nil, Instant(5), Instant(3)) == Instant(3))
    #expect(Instant.earliest(nil, nil) == nil)
    #expect(Instant.latest(Instant(5), nil, Instant(3)) == Instant(5))
    #expect(Instant.latest() == nil)
  }
}
