import Foundation

/// JSON string literals read where they lie, for `HAREntryShrinker`: where one ends, the bytes
/// its text stands for, whether those are UTF-8, and where it may be cut.
extension HAREntryShrinker {
  /// How many bytes of a literal's text make one unit that must not be cut: a byte, an escape,
  /// or a surrogate pair's two `\\u` escapes together.
  static func unitLength(_ bytes: UnsafeMutableRawBufferPointer, at index: Int, before close: Int)
    -> Int
  {
    guard bytes[index] == UInt8(ascii: "\\"), index + 1 < close else { return 1 }
    guard bytes[index + 1] == UInt8(ascii: "u"), index + 5 < close else { return 2 }
    // D800-DBFF: a high surrogate, whose low half follows.
    let high =
      (bytes[index + 2] | 0x20) == UInt8(ascii: "d")
      && "89abAB".utf8.contains(bytes[index + 3])
    return high && index + 11 < close ? 12 : 6
  }

  /// Where the string literal starting at `start` (its quote) closes.
  static func literalEnd(_ bytes: UnsafeMutableRawBufferPointer, from start: Int, end: Int)
    -> Int?
  {
    var index = start + 1
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index
      default: index += 1
      }
    }
    return nil
  }

  /// The bytes a literal's text stands for, one at a time; false at a bad escape or a lone
  /// surrogate (what `JSONSerialization` refuses).
  static func unescape(
    _ bytes: UnsafeMutableRawBufferPointer, _ range: Range<Int>, emit: (UInt8) -> Void
  ) -> Bool {
    var index = range.lowerBound
    func hex4() -> UInt32? {
      guard index + 4 <= range.upperBound else { return nil }
      var value: UInt32 = 0
      for offset in 0..<4 {
        guard let digit = Character(UnicodeScalar(bytes[index + offset])).hexDigitValue else {
          return nil
        }
        value = value << 4 | UInt32(digit)
      }
      index += 4
      return value
    }
    while index < range.upperBound {
      let byte = bytes[index]
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        guard byte >= 0x20 else { return false }
        emit(byte)
        continue
      }
      guard index < range.upperBound else { return false }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): emit(escape)
      case UInt8(ascii: "b"): emit(0x08)
      case UInt8(ascii: "f"): emit(0x0C)
      case UInt8(ascii: "n"): emit(0x0A)
      case UInt8(ascii: "r"): emit(0x0D)
      case UInt8(ascii: "t"): emit(0x09)
      case UInt8(ascii: "u"):
        guard var scalar = hex4() else { return false }
        if (0xD800..<0xDC00).contains(scalar) {
          guard index + 2 <= range.upperBound, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { return false }
          index += 2
          guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
          return false
        }
        guard let unicode = Unicode.Scalar(scalar), let units = UTF8.encode(unicode) else {
          return false
        }
        for unit in units { emit(unit) }
      default: return false
      }
    }
    return true
  }

  static func validUTF8(_ bytes: UnsafeMutableRawBufferPointer, _ range: Range<Int>) -> Bool {
    var iterator = UnsafeRawBufferPointer(rebasing: bytes[range]).makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// `text` as the inside of a JSON string literal, with its quotes.
  static func escaped(_ text: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
      case 0..<0x20:
        let digits = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }
}
