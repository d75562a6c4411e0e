/// Durations as people write them in scenarios and flags: `90s`, `5m`, `2h`, `3d`, `1.5m`, or
/// plain seconds (`90`, `0.5`). At most `ValueLimits.longestDuration`.
public enum DurationText {
  /// Why a text is not a duration RegScope takes, worded for the person who wrote it.
  public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  public static func parse(_ text: String) -> Result<Double, Problem> {
    let trimmed = InputRules.trimmed(text).lowercased()
    let shown = TerminalText.escaped(text)
    guard let last = trimmed.last else {
      return .failure(
        Problem(description: "expected a duration such as 90s, 5m, 2h or 3d; got nothing"))
    }
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    let (number, unit) =
      units[last].map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(number), value.isFinite
    else {
      return .failure(
        Problem(description: "expected a duration such as 90s, 5m, 2h or 3d; got \"\(shown)\""))
    }
    let seconds = value * unit
    guard seconds <= ValueLimits.longestDuration else {
      return .failure(
        Problem(
          description:
            "\"\(shown)\" is too long: durations go up to \(describe(ValueLimits.longestDuration))"
        ))
    }
    return .success(seconds)
  }

  public static func seconds(_ text: String) -> Double? { try? parse(text).get() }

  /// `70 s`, `5 min`, `2 h 30 min`, `3 d 4 h`: compact, for timelines and countdowns. The
  /// value is rounded once, to about three figures (`0.25 s`, `1.5 s`, `12.5 s`, then whole
  /// seconds from a minute), and only then put in units: 59.9996 s and 60.0003 s both read
  /// `1 min`, never `59.999 s` or `60 s` beside it.
  public static func describe(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s" }
    let rounded = shown(seconds)
    if abs(rounded) < 60 { return "\(NumberText.compact(rounded)) s" }
    let total = Int(rounded)
    let days = total / 86_400
    let hours = (total % 86_400) / 3600
    let minutes = (total % 3600) / 60
    let secs = total % 60
    if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
    if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
    return secs > 0 ? "\(minutes) min \(secs) s" : "\(minutes) min"
  }

  /// `seconds` at the precision a duration is shown with: milliseconds below a second,
  /// hundredths below ten, tenths below a minute, whole seconds beyond.
  public static func shown(_ seconds: Double) -> Double {
    let magnitude = abs(seconds)
    let step = magnitude < 1 ? 1000.0 : magnitude < 10 ? 100 : magnitude < 60 ? 10 : 1
    let rounded = (seconds * step).rounded() / step
    // Tenths may carry into the minute (59.96 -> 60.0): from there on, whole seconds.
    return abs(rounded) >= 60 ? rounded.rounded() : rounded
  }
}
