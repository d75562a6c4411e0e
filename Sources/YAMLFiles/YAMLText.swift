import RegistrationCore
import SystemCalls

/// What RegScope's YAML files must be before the YAML library sees them: text of a bounded
/// size with no control character YAML forbids. Checked in one linear pass, so a hostile file
/// (a megabyte of NUL bytes) is refused at once with its place, never read whole into an error.
public enum YAMLText {
  /// The largest YAML file read (a scenario, a QA plan, a theme is a few kilobytes).
  public static let largestFile = 1 << 20
  /// The longest text from the library quoted in an error.
  public static let longestQuote = 200

  /// The file's text, or an error that says what and where: not a regular file, larger than
  /// `largestFile`, not UTF-8.
  public static func read(_ path: String) throws(SourceError) -> String {
    let start = SourcePosition(file: path, line: 1, column: 1)
    switch SystemCalls.readFile(path, atMost: largestFile) {
    case .failure(let refusal):
      throw SourceError(start, "\(refusal)")
    case .success(let bytes):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        let valid = String(decoding: bytes, as: UTF8.self).prefix { $0 != "\u{FFFD}" }
        let (line, column) = position(ofByte: valid.utf8.count, in: valid + " ")
        throw SourceError(
          SourcePosition(file: path, line: line, column: column), "is not UTF-8 text")
      }
      return text
    }
  }

  /// The first character YAML 1.2 does not allow in a stream (C0 controls but tab, line feed
  /// and carriage return; DEL; C1 controls but NEL), with its 1-based line and column.
  public static func firstUnprintable(in text: String) -> (line: Int, column: Int, code: String)? {
    var (line, column) = (1, 0)
    for scalar in text.unicodeScalars {
      column += 1
      let value = scalar.value
      if value == 0x0A {
        (line, column) = (line + 1, 0)
        continue
      }
      let allowed =
        value == 0x09 || value == 0x0D || (0x20...0x7E).contains(value) || value == 0x85
        || value >= 0xA0
      if !allowed {
        let hex = String(value, radix: 16, uppercase: true)
        return (line, column, String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
      }
    }
    return nil
  }

  /// The 1-based line and column of the byte at `offset` of `text`, counted in one pass.
  public static func position(ofByte offset: Int, in text: String) -> (line: Int, column: Int) {
    var (line, column) = (1, 1)
    for byte in text.utf8.prefix(max(0, offset)) {
      if byte == 0x0A {
        (line, column) = (line + 1, 1)
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  /// Text from the library, cut and escaped for an error line.
  public static func bounded(_ text: String) -> String {
    let cut = text.count > longestQuote ? String(text.prefix(longestQuote)) + "…" : text
    return TerminalText.escaped(cut)
  }
}
