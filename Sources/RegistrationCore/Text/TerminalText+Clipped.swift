extension TerminalText {
  /// How many characters of a value a line quotes before it is clipped.
  public static let longestQuoted = 80

  /// `text` as a line quotes it: escaped (`escaped`), and past `limit` characters its first
  /// ones, an ellipsis and its whole length (`abcd…(102400 chars)`), so that a value of
  /// 100 KB is not repeated whole in every line that names it.
  public static func clipped(_ text: String, limit: Int = longestQuoted) -> String {
    // Most values are short: their bytes bound their characters, with no count made.
    if text.utf8.count <= limit { return escaped(text) }
    let head = text.prefix(limit)
    if head.endIndex == text.endIndex { return escaped(text) }
    return escaped(String(head)) + "…(\(text.count) chars)"
  }
}
