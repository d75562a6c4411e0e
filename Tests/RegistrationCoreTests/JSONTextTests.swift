import Foundation
import RegistrationCore
import Testing

/// JSON quoting copies runs of plain text in one go and escapes the rest; checked against a
/// scalar-by-scalar reading of the rule, and read back by Foundation.
@Suite("JSON string quoting")
struct JSONTextTests {
  /// The rule, one scalar at a time: RFC 8259's escapes, and `\uXXXX` for every other control,
  /// DEL, C1 and bidirectional control.
  static func reference(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where TerminalText.isUnsafe(scalar):
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  @Test(
    "every kind of character is written as the rule says, and reads back the same",
    arguments: [
      "plain ASCII text", "", "\"quoted\" \\ back", "lines\n\r\ttab\u{08}\u{0C}",
      "ctrl \u{01}\u{1B}[31m \u{7F}", "c1 \u{85}\u{9B}1m", "bidi \u{200E}\u{202E}\u{2066}x\u{2069}",
      "é ü 日本 😀", "mixed \u{9B}é\"\u{202E}😀\n",
    ])
  func quoting(text: String) throws {
    let quoted = JSONText.quoted(text)
    #expect(quoted == Self.reference(text))
    let read =
      try JSONSerialization.jsonObject(
        with: Data("[\(quoted)]".utf8)) as? [String]
    #expect(read == [text])
  }
}
