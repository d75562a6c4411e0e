import RegistrationCore

/// Durations as people write them in scenarios and flags: `90s`, `5m`, `2h`, `3d`, `1.5m`, or
/// plain seconds (`90`, `0.5`).
public enum DurationText {
  public static func seconds(_ text: String) -> Double? {
    let trimmed = InputRules.trimmed(text).lowercased()
    guard let last = trimmed.last else { return nil }
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    let (number, unit) =
      units[last].map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
    guard let value = Double(number), value.isFinite, value >= 0,
      number.allSatisfy({ $0.isNumber || $0 == "." })
    else { return nil }
    return value * unit
  }

  /// `70 s`, `5 min`, `2 h 30 min`, `3 d 4 h`: compact, for timelines and countdowns.
  public static func describe(_ seconds: Double) -> String {
    if seconds < 60 {
      let rounded = (seconds * 1000).rounded() / 1000
      return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
    let total = Int(seconds.rounded())
    let days = total / 86_400
    let hours = (total % 86_400) / 3600
    let minutes = (total % 3600) / 60
    let secs = total % 60
    if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
    if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
    return secs > 0 ? "\(minutes) min \(secs) s" : "\(minutes) min"
  }
}
