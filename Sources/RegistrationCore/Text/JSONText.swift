/// JSON string quoting per RFC 8259, shared by every JSON this project writes. Besides what
/// RFC 8259 requires, DEL, the C1 controls and the bidirectional controls are written as
/// `\uXXXX`: a JSON line is read in terminals and log viewers, which obey them when raw.
public enum JSONText {
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { utf8 in append(utf8, to: &bytes) }
  }

  /// Written into room for the text and a few escapes; a text with more is written again
  /// into room for the most it can take (`escapedRoom`).
  private static func append(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    // The second room is always enough.
    for attempt in 0..<2 {
      let room = attempt == 0 ? utf8.count + utf8.count / 8 + 16 : escapedRoom(utf8.count) + 2
      var done = false
      bytes.append(addingCapacity: room) { span in
        span.withUnsafeMutableBufferPointer { buffer, written in
          guard let base = buffer.baseAddress else { return }
          if let count = writeQuoted(utf8, to: base, end: base + buffer.count) {
            written = count
            done = true
          }
        }
      }
      if done { return }
    }
  }

  /// Room in which `writeEscaped` always writes `count` bytes of text: a `\u00XX` for
  /// each, and the eight bytes it stores at once.
  public static func escapedRoom(_ count: Int) -> Int { 6 * count + 8 }

  /// `writeEscaped` between quotes.
  @inline(__always)
  public static func writeQuoted(
    _ utf8: UnsafeBufferPointer<UInt8>, to base: UnsafeMutablePointer<UInt8>,
    end: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    guard end - base >= 2, let inside = writeEscaped(utf8, to: base + 1, end: end - 1) else {
      return nil
    }
    base.initialize(to: UInt8(ascii: "\""))
    (base + 1 + inside).initialize(to: UInt8(ascii: "\""))
    return inside + 2
  }

  /// Valid UTF-8 escaped as `appendQuoted` escapes it, written from `base` on, but not at or
  /// past `end`; returns how many bytes were written, or nil when the room ran out first
  /// (`escapedRoom(utf8.count)` is always enough). Written through a pointer in one pass (a
  /// capture escapes every body and header of every request): eight bytes at a time while
  /// none needs a look, as most text has none; quotes, backslashes and invisible or control
  /// characters escaped.
  public static func writeEscaped(
    _ utf8: UnsafeBufferPointer<UInt8>, to base: UnsafeMutablePointer<UInt8>,
    end: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    guard let source = utf8.baseAddress else { return 0 }
    var to = base
    var from = source
    let last = source + utf8.count
    while from < last {
      // Room for the eight bytes stored at once, or for the longest escape.
      guard end - to >= 8 else { return nil }
      if last - from >= 8 {
        let word = UnsafeRawPointer(from).loadUnaligned(as: UInt64.self)
        let flags = escapeFlags(word)
        UnsafeMutableRawPointer(to).storeBytes(of: word, as: UInt64.self)
        let plain = flags == 0 ? 8 : flags.trailingZeroBitCount >> 3
        to += plain
        from += plain
        if plain == 8 { continue }
        // The store may have left less room than an escape takes (six bytes, after seven
        // plain ones): the text is then written again into more.
        guard end - to >= 6 else { return nil }
      }
      escapeOne(from: &from, before: last, to: &to)
    }
    return to - base
  }

  /// One byte (or one multi-byte scalar) of `writeEscaped`'s text, copied or escaped: at
  /// most six bytes.
  @inline(__always)
  private static func escapeOne(
    from: inout UnsafePointer<UInt8>, before last: UnsafePointer<UInt8>,
    to: inout UnsafeMutablePointer<UInt8>
  ) {
    let byte = from.pointee
    switch byte {
    case 0x20..<0x7F:
      if byte == 0x22 || byte == 0x5C {
        to.initialize(to: 0x5C)
        to += 1
      }
      to.initialize(to: byte)
      to += 1
      from += 1
    case 0x80...:
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
      // Valid UTF-8 always ends its scalars; anything else (not a String's) is one
      // replacement character a byte, as `String(decoding:)` would read it at worst.
      guard byte >= 0xC0, length <= last - from else {
        to.initialize(to: 0xEF)
        (to + 1).initialize(to: 0xBF)
        (to + 2).initialize(to: 0xBD)
        to += 3
        from += 1
        return
      }
      let scalar = scalar(in: UnsafeBufferPointer(start: from, count: length), at: 0).0
      if TerminalText.isUnsafe(scalar) {
        writeEscape(scalar.value, to: &to)
      } else {
        to.initialize(from: from, count: length)
        to += length
      }
      from += length
    default:
      if let letter = shortEscape(byte) {
        to.initialize(to: UInt8(ascii: "\\"))
        (to + 1).initialize(to: letter)
        to += 2
      } else {
        writeEscape(UInt32(byte), to: &to)
      }
      from += 1
    }
  }

  /// A high bit in each of the eight bytes that is a control character, `"`, `\`, DEL or not
  /// ASCII. The lowest is exact (the first such byte in memory); above it the bit tricks may
  /// flag a byte that is plain, never miss one.
  @inline(__always)
  private static func escapeFlags(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let control = (word &- ones &* 0x20) & ~word & highs
    let nonASCII = word & highs
    let quote = zeroBytes(word ^ (ones &* 0x22))
    let backslash = zeroBytes(word ^ (ones &* 0x5C))
    let delete = zeroBytes(word ^ (ones &* 0x7F))
    return control | nonASCII | quote | backslash | delete
  }

  /// The letter JSON escapes `byte` with (`\n` and the like), if it has one.
  private static func shortEscape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x22: UInt8(ascii: "\"")
    case 0x5C: UInt8(ascii: "\\")
    case 0x0A: UInt8(ascii: "n")
    case 0x0D: UInt8(ascii: "r")
    case 0x09: UInt8(ascii: "t")
    case 0x08: UInt8(ascii: "b")
    case 0x0C: UInt8(ascii: "f")
    default: nil
    }
  }

  /// The scalar that starts at `index` of valid UTF-8 (a String's), and its length in bytes.
  private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (
    Unicode.Scalar, Int
  ) {
    let lead = UInt32(utf8[index])
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    var value = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
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

  /// `\uXXXX` (a scalar of the Basic Multilingual Plane, as every unsafe one is).
  @inline(__always)
  private static func writeEscape(_ value: UInt32, to: inout UnsafeMutablePointer<UInt8>) {
    to.initialize(to: UInt8(ascii: "\\"))
    (to + 1).initialize(to: UInt8(ascii: "u"))
    to += 2
    var shift: UInt32 = 16
    while shift > 0 {
      shift -= 4
      to.initialize(to: hexDigit(UInt8((value >> shift) & 0xF)))
      to += 1
    }
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
