import EngagementCore
import RegistrationCore
import SessionValues
import Synchronization
import Testing
import ToolSupport

/// `regctl serve`'s event lines under a fleet: at most so many a second, the rest counted and
/// said once the second is over, nothing lost from the count.
@Suite("Live event lines within a budget")
struct LiveEventLinesTests {
  static func received(_ id: Int, at seconds: Double) -> RunEvent {
    RunEvent(
      t: Instant(seconds),
      body: .server(
        .received(
          registrationID: id, deviceID: "D\(id)", status: 201, processAt: Instant(seconds + 60))))
  }

  static func refused(at seconds: Double) -> RunEvent {
    RunEvent(t: Instant(seconds), body: .server(.refused(status: 401, reason: "bad token")))
  }

  @Test("Under the budget every event is written, in order, with no summary")
  func underBudget() {
    var budget = LiveLineBudget(perSecond: 3, zone: .utc)
    var lines: [String] = []
    for id in 1...3 {
      lines += budget.admit(Self.received(id, at: 100.2)) { "line \(id)" }
    }
    lines += budget.admit(Self.received(4, at: 101.0)) { "line 4" }
    #expect(lines == ["line 1", "line 2", "line 3", "line 4"])
    #expect(budget.summary(at: Instant(500), force: true) == nil)
  }

  @Test("Past the budget a second's events are counted by kind and said once it is over")
  func pastBudget() throws {
    var budget = LiveLineBudget(perSecond: 2, zone: .utc)
    var lines: [String] = []
    for id in 1...5 { lines += budget.admit(Self.received(id, at: 100.5)) { "line \(id)" } }
    lines += budget.admit(RunEvent(t: Instant(100.9), body: .server(.faulted("503")))) { "503" }
    #expect(lines == ["line 1", "line 2"])
    #expect(budget.isHolding)
    // Not before the second is over.
    #expect(budget.summary(at: Instant(100.99)) == nil)
    let said = budget.summary(at: Instant(101.01))
    let summary = try #require(said)
    #expect(summary.hasPrefix("00:01:40  (4 more events that second not written:"))
    #expect(summary.contains("not written: received 3, faulted 1;"))
    #expect(summary.contains("at most 2 lines a second"))
    #expect(budget.summary(at: Instant(102), force: true) == nil)
    #expect(!budget.isHolding)
  }

  @Test(
    "Refusals, findings and an adopted app are written past the budget; the rest counted by kind")
  func alwaysWritten() throws {
    var budget = LiveLineBudget(perSecond: 1, zone: .utc)
    var lines: [String] = []
    lines += budget.admit(Self.received(1, at: 50.1)) { "received 1" }
    lines += budget.admit(Self.received(2, at: 50.2)) { "received 2" }
    lines += budget.admit(Self.refused(at: 50.3)) { "refused" }
    let finding = RunEvent(
      t: Instant(50.4),
      body: .server(
        .finding(
          deviceID: "D",
          finding: Finding(
            code: .throttleViolated, rule: "R4.1", message: "m", severity: .violation))))
    lines += budget.admit(finding) { "finding" }
    lines += budget.admit(RunEvent(t: Instant(50.5), body: .server(.faulted("503")))) { "fault" }
    #expect(lines == ["received 1", "refused", "finding"])
    let said = budget.summary(at: Instant(51))
    let summary = try #require(said)
    #expect(summary.contains("2 more events that second not written: faulted 1, received 1;"))
  }

  @Test("A new second's first event says the last second's summary before its own line")
  func summaryBeforeNextLine() {
    var budget = LiveLineBudget(perSecond: 1, zone: .utc)
    _ = budget.admit(Self.received(1, at: 7.1)) { "one" }
    _ = budget.admit(Self.received(2, at: 7.2)) { "two" }
    let lines = budget.admit(Self.received(3, at: 8.0)) { "three" }
    #expect(lines.count == 2)
    #expect(lines.first?.contains("1 more event that second") == true)
    #expect(lines.last == "three")
  }

  @Test("Instants no clock gives (huge, not finite) count in one second and do not trap")
  func hostileInstants() {
    var budget = LiveLineBudget(perSecond: 1, zone: .utc)
    var lines: [String] = []
    for seconds in [Double.infinity, -.infinity, .nan, 1e300, -1e300] {
      lines += budget.admit(Self.received(1, at: seconds)) { "x" }
    }
    #expect(lines.first == "x")
    #expect(budget.summary(at: Instant(.nan), force: true)?.contains("4 more events") == true)
  }

  /// A clock the test moves: the flush's wait moves it past the second, as time would.
  final class TestClock: Sendable {
    let seconds = Mutex(100.25)
    func now() -> Instant { Instant(seconds.withLock { $0 }) }
    func pass(_ duration: Duration) {
      let (whole, attoseconds) = duration.components
      seconds.withLock { $0 += Double(whole) + Double(attoseconds) / 1e18 }
    }
  }

  @Test("The writer sums up a second that held events without another event to trigger it")
  func writerFlushes() async {
    let clock = TestClock()
    let written = Mutex<[String]>([])
    let lines = LiveEventLines(
      budget: LiveLineBudget(perSecond: 2, zone: .utc), now: { clock.now() },
      format: { "event at \($0.t.seconds)" },
      write: { line in written.withLock { $0.append(line) } },
      sleep: { clock.pass($0) })
    for id in 1...4 { lines.append(Self.received(id, at: 100.25)) }
    await lines.settled()
    let all = written.withLock { $0 }
    #expect(all.count == 3)
    #expect(all.last?.contains("2 more events that second not written: received 2") == true)
    // Once said, nothing is said again when the command stops.
    lines.finish()
    #expect(written.withLock { $0.count } == 3)
  }

  @Test("Stopping says what is still held at once")
  func finishSays() {
    let written = Mutex<[String]>([])
    let lines = LiveEventLines(
      budget: LiveLineBudget(perSecond: 1, zone: .utc), now: { Instant(100.5) },
      format: { _ in "line" }, write: { line in written.withLock { $0.append(line) } },
      sleep: { _ in await Task.yield() })
    lines.append(Self.received(1, at: 100.5))
    lines.append(Self.received(2, at: 100.5))
    lines.finish()
    let all = written.withLock { $0 }
    #expect(all.first == "line")
    #expect(all.dropFirst().first?.contains("1 more event that second") == true)
  }
}
