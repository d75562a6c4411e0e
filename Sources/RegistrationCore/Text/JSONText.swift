/// JSON string quoting per RFC 8259, shared by every JSON this project writes. Besides what
/// RFC 8259 requires, DEL, the C1 controls and the bidirectional controls are written as
/// `\uXXXX`: a JSON line is read in terminals and log viewers, which obey them when raw.
public enum JSONText {
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    // Most text is printable ASCII with nothing to escape: copied as it is, in one go.
    let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    if plain {
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case 0x5C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case _ where TerminalText.isUnsafe(scalar): appendEscape(scalar.value, to: &bytes)
      case 0x20..<0x7F: bytes.append(UInt8(truncatingIfNeeded: scalar.value))
      default: UTF8.encode(scalar) { bytes.append($0) }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendQuoted(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// JSON written by Foundation's encoders, with DEL, C1 and bidirectional controls turned into
  /// `\uXXXX`. These characters can only stand inside strings (JSON's own syntax is ASCII), so
  /// rewriting them byte by byte keeps the document valid and its meaning unchanged.
  public static func escapingInvisibles(_ json: [UInt8]) -> [UInt8] {
    guard json.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return json }
    var output: [UInt8] = []
    output.reserveCapacity(json.count + 16)
    var index = 0
    while index < json.count {
      let byte = json[index]
      if byte == 0x7F {
        appendEscape(0x7F, to: &output)
        index += 1
      } else if byte == 0xC2, index + 1 < json.count, (0x80...0x9F).contains(json[index + 1]) {
        appendEscape(UInt32(json[index + 1]), to: &output)
        index += 2
      } else if byte == 0xE2, index + 2 < json.count,
        let scalar = bidiControl(json[index + 1], json[index + 2])
      {
        appendEscape(scalar, to: &output)
        index += 3
      } else {
        output.append(byte)
        index += 1
      }
    }
    return output
  }

  public static func escapingInvisibles(_ json: String) -> String {
    String(decoding: escapingInvisibles(Array(json.utf8)), as: UTF8.self)
  }

  /// U+200E, U+200F, U+202A-U+202E and U+2066-U+2069 from the last two bytes of their UTF-8.
  private static func bidiControl(_ second: UInt8, _ third: UInt8) -> UInt32? {
    let scalar = 0x2000 | (UInt32(second & 0x3F) << 6) | UInt32(third & 0x3F)
    guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return nil }
    return TerminalText.isUnsafe(Unicode.Scalar(scalar) ?? " ") ? scalar : nil
  }

  private static func appendEscape(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
    for shift in stride(from: 12, through: 0, by: -4) {
      bytes.append(hexDigit(UInt8((value >> UInt32(shift)) & 0xF)))
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
