/// Splits a command line into words as a shell would: white space separates, "double" and
/// 'single' quotes group, a backslash escapes the next character (inside double quotes too).
/// Each word keeps the column it starts at, so errors can point at it.
public enum CommandWords {
  public struct Word: Hashable, Sendable {
    public var text: String
    /// 1-based column of the word's first character.
    public var column: Int
  }

  public struct SplitError: Error, Hashable, Sendable {
    public var column: Int
    public var message: String
  }

  public static func split(_ line: String) throws(SplitError) -> [Word] {
    var words: [Word] = []
    var current = ""
    var start: Int?
    var quote: Character?
    var quoteColumn = 0
    var escaping = false
    var column = 0
    for character in line {
      column += 1
      if escaping {
        current.append(character)
        escaping = false
        continue
      }
      if character == "\\" && quote != "'" {
        escaping = true
        if start == nil { start = column }
        continue
      }
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
        continue
      }
      if character == "\"" || character == "'" {
        quote = character
        quoteColumn = column
        if start == nil { start = column }
        continue
      }
      if character.isWhitespace {
        if let begin = start {
          words.append(Word(text: current, column: begin))
          current = ""
          start = nil
        }
        continue
      }
      if start == nil { start = column }
      current.append(character)
    }
    if let quote {
      throw SplitError(
        column: quoteColumn, message: "the \(quote) quote opened here is never closed")
    }
    if escaping {
      throw SplitError(column: column, message: "a backslash at the end escapes nothing")
    }
    if let begin = start { words.append(Word(text: current, column: begin)) }
    return words
  }

  /// Quotes a value when it would not survive `split` as one word.
  public static func quote(_ value: String) -> String {
    let plain = !value.isEmpty && value.allSatisfy { !$0.isWhitespace && !"\"'\\".contains($0) }
    if plain { return value }
    var escaped = ""
    for character in value {
      if character == "\"" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return "\"\(escaped)\""
  }
}
