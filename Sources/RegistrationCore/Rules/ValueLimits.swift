/// The largest values RegScope takes from a person or a peer. They are checked where text
/// becomes a value (flags, scenario files, the command language, the server's control routes),
/// so that no later arithmetic or conversion to an integer can trap on them.
public enum ValueLimits {
  /// Durations of every kind (scenario times, delays, faults, Retry-After): a year and a day,
  /// far beyond the one-day cap of the backoff (R4.1, R4.2).
  public static let longestDuration: Double = 366 * 86_400
  /// Counts such as `server fail 503 times N`.
  public static let largestCount = 1_000_000
}

/// Numbers written for people, for any value: whole numbers without a fraction. Never traps,
/// whatever the value (a conversion to `Int` of a huge or non-finite `Double` would).
public enum NumberText {
  public static func compact(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    return value == value.rounded() ? String(Int(value)) : String(value)
  }

  /// A whole number with thousands separated: `5,000`.
  public static func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return (value < 0 ? "-" : "") + text
  }
}
