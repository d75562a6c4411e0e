/// JSON string escapes (RFC 8259 §7) decoded in one place, for both readers of a body:
/// `StrictJSON` (a key's text, its escapes already checked) and `PayloadScanner` (whose nil
/// hands an odd body to the full path).
public enum JSONEscapes {
  /// The bytes between a string's quotes with their escapes decoded; nil at an escape JSON
  /// does not have, a `\u` without four hex digits, or a surrogate without its pair. What
  /// the bytes are otherwise (raw control characters, UTF-8 or not) is the caller's to judge.
  static func decoded(_ inside: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var text: [UInt8] = []
    text.reserveCapacity(inside.count)
    var index = 0
    while index < inside.count {
      let byte = inside[index]
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        index += 1
        continue
      }
      guard index + 1 < inside.count else { return nil }
      let kind = inside[index + 1]
      index += 2
      switch kind {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(kind)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        guard let scalar = scalar(inside, &index) else { return nil }
        text.append(contentsOf: String(Character(scalar)).utf8)
      default: return nil
      }
    }
    return text
  }

  /// The scalar of `\uXXXX` (its `\u` already read), with its low surrogate when it is a high
  /// one; nil for a surrogate without its pair.
  private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int)
    -> Unicode.Scalar?
  {
    guard let high = hex4(bytes, at: index) else { return nil }
    index += 4
    guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
    guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(bytes, at: index + 2),
      (0xDC00...0xDFFF).contains(low)
    else { return nil }
    index += 6
    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
  }

  /// The four hex digits at `index` as a number; nil when they are not four hex digits.
  public static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
    guard index >= 0, index + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
