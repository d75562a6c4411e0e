import Clocks
import RegistrationCore
import Synchronization
import Testing

@Suite("a demo's pace: how the virtual clock is walked for the eye")
struct DemoPaceTests {
  @Test("a frame moves rate x frame seconds, never past the next thing due or the step")
  func frames() {
    let pace = DemoPace(rate: 60)
    #expect(pace.nextMove(from: .zero, target: Instant(10), nextDue: nil) == Instant(3))
    #expect(pace.nextMove(from: .zero, target: Instant(2), nextDue: nil) == Instant(2))
    #expect(pace.nextMove(from: .zero, target: Instant(10), nextDue: Instant(1)) == Instant(1))
  }

  @Test("a quiet stretch over 3 s of wall time is fast-forwarded to 1.5 s before its end, and said")
  func fastForward() {
    let pace = DemoPace(rate: 60)
    let skipped = Mutex<[Double]>([])
    pace.whenFastForwarding { seconds in skipped.withLock { $0.append(seconds) } }
    // 3 s of wall at 60x is 180 virtual seconds: up to there it walks.
    #expect(pace.nextMove(from: .zero, target: Instant(180), nextDue: nil) == Instant(3))
    #expect(skipped.withLock { $0 }.isEmpty)
    // A day ahead: to 90 s (1.5 s of wall) before it.
    #expect(pace.nextMove(from: .zero, target: Instant(86_400), nextDue: nil) == Instant(86_310))
    #expect(skipped.withLock { $0 } == [86_310])
  }

  @Test("paused, the clock stays; n goes straight to what comes next")
  func pausedAndSkip() {
    let pace = DemoPace(rate: 60)
    pace.setRate(0)
    #expect(
      pace.nextMove(from: Instant(5), target: Instant(100), nextDue: Instant(70)) == Instant(5))
    pace.skipToNext()
    #expect(
      pace.nextMove(from: Instant(5), target: Instant(100), nextDue: Instant(70)) == Instant(70))
    // A skip is used once.
    #expect(
      pace.nextMove(from: Instant(5), target: Instant(100), nextDue: Instant(70)) == Instant(5))
  }

  @Test("with --step a caption holds until proceed(), whatever the time")
  func stepHolds() async throws {
    let pace = DemoPace(rate: 60, holdsForKey: true)
    let released = Mutex(false)
    let hold = Task {
      try await pace.holdCaption()
      released.withLock { $0 = true }
    }
    await Task.yield()
    #expect(released.withLock { $0 } == false)
    pace.proceed()
    try await hold.value
    #expect(released.withLock { $0 })
  }

  @Test("a caption hold of 0 s lets the demo go on at once", .timeLimit(.minutes(10)))
  func noHold() async throws {
    // The default hold is 3 s of wall time: one that ignored the 0 would take that long.
    let clock = ContinuousClock()
    let took = try await clock.measure {
      try await DemoPace(rate: 60, captionHold: 0).holdCaption()
    }
    #expect(took < .seconds(1), "held \(took)")
  }
}
