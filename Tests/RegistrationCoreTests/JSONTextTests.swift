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
      // Escapes only: past the room first made for the text, written again into more.
      String(repeating: "\u{01}\"\u{85}", count: 64),
      // An escape right after seven plain bytes, where the first room runs out: written
      // again, never past the room's end.
      "\u{1}\u{1}\u{1}abcdefg\u{1}",
      "uvwxyz" + String(repeating: "\"", count: 18) + "abcdefg\"",
    ])
  func quoting(text: String) throws {
    let quoted = JSONText.quoted(text)
    #expect(quoted == Self.reference(text))
    let read =
      try JSONSerialization.jsonObject(
        with: Data("[\(quoted)]".utf8)) as? [String]
    #expect(read == [text])
  }

  @Test("the escaper never writes past the room it is given, whatever the text and the room")
  func staysInItsRoom() {
    // Texts of escapes and plain runs in every mix, each written into every room from none
    // to the most it needs, with guard bytes after the room: a write past it changes them.
    let pieces = ["a", "abcdefg", "\"", "\u{1}", "é", "\u{202E}", "😀", "\\", "\u{7F}"]
    // Seeded: a failure names its text, and the next run meets the same texts again.
    var generator = SplitMix64(seed: 0x4A53_4F4E)
    for _ in 0..<300 {
      let text = (0...generator.below(12)).map { _ in pieces[generator.below(pieces.count)] }
        .joined()
      var utf8 = Array(text.utf8)
      let most = JSONText.escapedRoom(utf8.count)
      for room in 0...most {
        var buffer = [UInt8](repeating: 0xAA, count: room + 16)
        let written = utf8.withUnsafeMutableBufferPointer { source in
          buffer.withUnsafeMutableBufferPointer { out in
            JSONText.writeEscaped(
              UnsafeBufferPointer(source), to: out.baseAddress!, end: out.baseAddress! + room)
          }
        }
        #expect(
          buffer[room...].allSatisfy { $0 == 0xAA }, "\(text) in \(room): wrote past its room")
        if room == most { #expect(written != nil, "\(text): the most room was not enough") }
        if let written { #expect(written <= room) }
      }
    }
  }

  @Test("a long text (read eight bytes at a time) escapes each kind of character at every place")
  func longTexts() {
    // Long texts take the word-at-a-time path: every kind of character at every offset of
    // every alignment, around the length where that path starts and past a word's end.
    let kinds = [
      "\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}", "é", "日", "😀", "\u{85}", "\u{202E}", " ", "~",
    ]
    var failures: [String] = []
    for length in 60...76 {
      for kind in kinds {
        for place in 0..<length {
          let text =
            String(repeating: "a", count: place) + kind
            + String(repeating: "b", count: length - place - 1)
          if JSONText.quoted(text) != Self.reference(text) { failures.append(text) }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
    // A whole body, as a capture escapes it, appended after what the buffer held.
    let body = #"{"deviceID":"A\"B","tags":["x\\y"],"note":"tab\there","n":1}"#
    var bytes = Array("[".utf8)
    JSONText.appendQuoted(String(repeating: body, count: 4), to: &bytes)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "[" + Self.reference(String(repeating: body, count: 4)))
  }
}
