/// How a secret prints: never whole.
public enum TokenText {
  /// The first four characters and the length, enough to tell two tokens apart; a short one
  /// only its length.
  public static func masked(_ value: String) -> String {
    let count = value.count
    guard count >= 12 else { return "…(\(count) chars)" }
    return "\(value.prefix(4))…(\(count) chars)"
  }
}
