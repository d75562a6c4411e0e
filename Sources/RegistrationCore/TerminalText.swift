/// Text from data (attribute values, tags, server answers) made safe for a terminal: control
/// characters, escape sequences and bidirectional overrides are shown escaped, never sent raw.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    var needsWork = false
    for scalar in text.unicodeScalars where isUnsafe(scalar) {
      needsWork = true
      break
    }
    guard needsWork else { return text }
    var output = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isUnsafe(scalar) else {
        output.append(scalar)
        continue
      }
      let visible: String
      switch scalar.value {
      case 0x1B: visible = "\\e"
      case 0x0A: visible = "\\n"
      case 0x0D: visible = "\\r"
      case 0x09: visible = "\\t"
      case 0x00: visible = "\\0"
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        visible =
          scalar.value <= 0xFF
          ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
          : "\\u{" + hex + "}"
      }
      output.append(contentsOf: visible.unicodeScalars)
    }
    return String(output)
  }

  /// C0 and C1 controls, DEL, and the bidirectional controls that can reorder a line.
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
