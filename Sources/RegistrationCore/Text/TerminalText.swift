/// Text from data (attribute values, tags, server answers) made safe for a terminal: control
/// characters, escape sequences and bidirectional overrides are shown escaped, never sent raw.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    var needsWork = false
    var marks = 0
    for scalar in text.unicodeScalars {
      marks = isCombining(scalar) ? marks + 1 : 0
      if hidden(scalar) || marks > combiningLimit {
        needsWork = true
        break
      }
    }
    guard needsWork else { return text }
    var output = String.UnicodeScalarView()
    marks = 0
    for scalar in text.unicodeScalars {
      marks = isCombining(scalar) ? marks + 1 : 0
      guard hidden(scalar) || marks > combiningLimit else {
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

  /// Combining marks kept on one base; more are shown escaped (a terminal keeps only a few
  /// in a cell, and a pile of them can draw over the line above).
  public static let combiningLimit = 4

  /// What is shown escaped: the unsafe controls, and what a terminal draws invisibly or at a
  /// width that cannot be known, so that two different ids never look alike and a grapheme
  /// never takes more columns than were counted for it. Invisible format characters (U+200B,
  /// ZWJ, ZWNJ, U+2060, U+FEFF, soft hyphen, tags), variation selectors, regional indicators
  /// (flags), emoji skin-tone modifiers, and the Hangul jamo that join into a syllable.
  public static func hidden(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0xAD { return isUnsafe(scalar) }
    if isUnsafe(scalar) { return true }
    switch scalar.value {
    case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF,
      0x1160...0x11FF:
      return true
    default:
      return scalar.properties.generalCategory == .format
    }
  }

  public static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.value >= 0x300 else { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return true
    default: return false
    }
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
