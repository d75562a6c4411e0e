import Foundation
import RegistrationCore
import Session
import SessionValues
import Testing
import ToolSupport

@testable import Scenarios

@Suite("durations and terminal text")
struct SharedTextTests {
  @Test("durations as people write them")
  func durations() {
    #expect(DurationText.seconds("90s") == 90)
    #expect(DurationText.seconds("5m") == 300)
    #expect(DurationText.seconds("2h") == 7200)
    #expect(DurationText.seconds("3d") == 259_200)
    #expect(DurationText.seconds("1.5m") == 90)
    #expect(DurationText.seconds("70") == 70)
    #expect(DurationText.seconds(" 0.5 ") == 0.5)
    for bad in ["", "m", "-5s", "5 minutes", "5x", "1e3", "nan"] {
      #expect(DurationText.seconds(bad) == nil, "\(bad)")
    }
    #expect(DurationText.describe(70) == "1 min 10 s")
    #expect(DurationText.describe(59.5) == "59.5 s")
    #expect(DurationText.describe(86_400) == "1 d")
    #expect(DurationText.describe(9000) == "2 h 30 min")
  }

  @Test("a duration is rounded once, then put in units: no .999 beside the minute it is")
  func durationsRoundedOnce() {
    // Intervals measured between two real arrivals (issue #42: "+59.999 s" beside "+60 s").
    for seconds in [59.999, 59.9996, 59.96, 60, 60.0003, 60.4] {
      #expect(DurationText.describe(seconds) == "1 min", "\(seconds)")
    }
    #expect(DurationText.describe(9.9996) == "10 s")
    #expect(DurationText.describe(1.0004) == "1 s")
    #expect(DurationText.describe(1.25) == "1.25 s")
    #expect(DurationText.describe(12.34) == "12.3 s")
    #expect(DurationText.describe(0.25) == "0.25 s")
    #expect(DurationText.describe(0.0004) == "0 s")
    #expect(DurationText.describe(119.6) == "2 min")
    #expect(DurationText.describe(-0.5) == "-0.5 s")
  }

  @Test("a time since the start is rounded to the millisecond before it is split")
  func timestampsRoundedOnce() {
    #expect(Timestamp.format(Instant(59.9996)) == "0:01:00")
    #expect(Timestamp.format(Instant(69.999)) == "0:01:09.999")
    #expect(Timestamp.format(Instant(70.0004)) == "0:01:10")
    #expect(Timestamp.format(Instant(86_399.9999)) == "1d 00:00:00")
  }

  @Test("wall-clock times agree with Foundation's time zone, and absurd instants are dashes")
  func wallClock() {
    for seconds in [0.0, 1_700_000_000, 1_720_000_000.9, 1_735_689_599] {
      let date = Date(timeIntervalSince1970: seconds)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone.current
      let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
      let expected = [parts.hour, parts.minute, parts.second].map {
        String(format: "%02d", $0 ?? -1)
      }.joined(separator: ":")
      #expect(LiveLine.time(Instant(seconds), in: .system) == expected, "\(seconds)")
    }
    #expect(LiveLine.time(Instant(.infinity), in: .system) == "--:--:--")
    #expect(LiveLine.time(Instant(1e13), in: .utc) == "--:--:--")
    #expect(LiveLine.time(Instant(3_661), in: .utc) == "01:01:01")
  }

  @Test("control and escape characters are shown escaped, never raw")
  func escaping() {
    #expect(TerminalText.escaped("plain Zoë 東京") == "plain Zoë 東京")
    #expect(TerminalText.escaped("red\u{1B}[31m") == "red\\e[31m")
    #expect(TerminalText.escaped("a\nb\tc\u{07}") == "a\\nb\\tc\\x07")
    #expect(TerminalText.escaped("c1\u{9B}31m") == "c1\\x9B31m")
    #expect(TerminalText.escaped("bidi\u{202E}evil") == "bidi\\u{202E}evil")
    let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{0}\u{7F}"
    let shown = TerminalText.escaped(hostile)
    #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
  }
}

@Suite("command outcomes, worded once")
struct CommandOutcomeTests {
  @Test("the inspector's whole text; what the shell and the timeline add to the events")
  func wording() {
    let change = PendingChange(
      seq: 1, target: ChangeTarget(.tag, "x"), firstAt: .zero, lastAt: .zero, summary: "+ x")
    let applied = CommandOutcome.edit(
      .applied(change, warnings: [Warning(code: .backgroundEdit, rule: "R2.10", message: "m")]))
    #expect(applied.text == "applied: + x (backgroundEdit)")
    #expect(applied.unsaid == nil && !applied.isRefusal)
    let unchanged = CommandOutcome.edit(.unchanged(reason: "tag x is already there"))
    #expect(unchanged.unsaid == "no change: tag x is already there")
    let refused = CommandOutcome.edit(
      .rejected(Rejection(rule: "R2.7", field: "tag ALL", reason: "is the SDK's own tag")))
    #expect(refused.isRefusal && refused.text.hasPrefix("refused: ") && refused.unsaid == nil)
    #expect(CommandOutcome.done("server: up").unsaid == "server: up")
    #expect(ScenarioRunner.notable(.launched) == nil)
  }
}
