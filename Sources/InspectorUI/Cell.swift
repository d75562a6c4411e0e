import Synchronization

/// One column of the screen: a grapheme and what it means.
public struct Cell: Hashable, Sendable {
  private var glyph: Glyph
  public var role: StyleRole

  /// One grapheme; empty for the second column of a wide character.
  public var text: String { glyph.text }

  public static let blank = Cell(ascii: 0x20, role: .normal)

  public init(text: String, role: StyleRole) {
    glyph = Glyph(text)
    self.role = role
  }

  init(ascii byte: UInt8, role: StyleRole) {
    glyph = Glyph(ascii: byte)
    self.role = role
  }

  init(scalar: Unicode.Scalar, role: StyleRole) {
    glyph = Glyph(scalar: scalar)
    self.role = role
  }
}

/// A grapheme's UTF-8 held inline, so a cell is plain bits: a frame is copied, filled and
/// compared without reference counting (an idle tick does all three). Up to 15 bytes fit,
/// which is every grapheme a terminal shows in practice; a longer one (a family emoji, a
/// letter under many marks) is kept once in a shared table and named by its number.
struct Glyph: Hashable, Sendable {
  /// Bytes 0-7 of the UTF-8.
  private var low: UInt64
  /// Bytes 8-14 of the UTF-8, and the byte count in the top byte (`longMark`: `low` numbers
  /// a text in the table).
  private var high: UInt64

  private static let longMark: UInt64 = 0xFF

  init(ascii byte: UInt8) {
    low = UInt64(byte)
    high = 1 << 56
  }

  init(_ text: String) {
    (low, high) = Self.encode(text)
  }

  init(scalar: Unicode.Scalar) {
    (low, high) = (0, UInt64(scalar.utf8.count) << 56)
    for (offset, byte) in scalar.utf8.enumerated() { low |= UInt64(byte) << (8 * offset) }
  }

  private static func encode(_ text: String) -> (low: UInt64, high: UInt64) {
    let utf8 = text.utf8
    guard utf8.count <= 15 else {
      guard let number = LongGlyphs.number(of: text) else { return encode("\u{FFFD}") }
      return (UInt64(number), longMark << 56)
    }
    var (low, high): (UInt64, UInt64) = (0, UInt64(utf8.count) << 56)
    for (offset, byte) in utf8.enumerated() {
      if offset < 8 {
        low |= UInt64(byte) << (8 * offset)
      } else {
        high |= UInt64(byte) << (8 * (offset - 8))
      }
    }
    return (low, high)
  }

  var text: String {
    let count = Int(high >> 56)
    if count == Self.longMark { return LongGlyphs.text(number: Int(low)) }
    return String(unsafeUninitializedCapacity: count) { buffer in
      for offset in 0..<count {
        let word = offset < 8 ? low >> (8 * offset) : high >> (8 * (offset - 8))
        buffer[offset] = UInt8(truncatingIfNeeded: word)
      }
      return count
    }
  }
}

/// The graphemes too long to hold inline, each kept once. Bounded: past the limit a new one
/// shows as U+FFFD, so hostile data cannot grow it without end.
enum LongGlyphs {
  static let limit = 65_536
  private static let table = Mutex<(texts: [String], numbers: [String: Int])>(([], [:]))

  static func number(of text: String) -> Int? {
    table.withLock { table in
      if let number = table.numbers[text] { return number }
      guard table.texts.count < limit else { return nil }
      table.texts.append(text)
      table.numbers[text] = table.texts.count - 1
      return table.texts.count - 1
    }
  }

  static func text(number: Int) -> String {
    table.withLock { $0.texts.indices.contains(number) ? $0.texts[number] : "\u{FFFD}" }
  }
}
