/// JSON string quoting per RFC 8259, shared by every JSON this project writes. Besides what
/// RFC 8259 requires, DEL, the C1 controls and the bidirectional controls are written as
/// `\uXXXX`: a JSON line is read in terminals and log viewers, which obey them when raw.
public enum JSONText {
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { appendEscaped($0, to: &bytes) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Valid UTF-8 (a String's, or ASCII) as the inside of a JSON string, escaped as
  /// `appendQuoted` escapes it: runs with nothing to escape (most text) are copied in one go;
  /// quotes, backslashes and invisible or control characters are escaped.
  public static func appendEscaped(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    appendEscaped(utf8, to: &bytes)
  }

  private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    // A long text (a body) is escaped in place into room made for the worst case, then cut
    // to what was written; a short one, with fewer escapes, costs less appended a run at a
    // time.
    if utf8.count >= 64 {
      let start = bytes.count
      let room = 2 * utf8.count
      // Made from a block of zeros copied in (a repeated element is appended one at a
      // time in a debug build, which the instruction gate counts).
      var made = 0
      while made < room {
        let part = min(room - made, zeros.count)
        bytes.append(contentsOf: zeros[..<part])
        made += part
      }
      let written = bytes.withUnsafeMutableBufferPointer { all in
        all.baseAddress.flatMap { quotesOnlyEscaped(utf8, into: $0 + start) }
      }
      bytes.removeLast(room - (written ?? 0))
      if written != nil { return }
    }
    appendEscapedAny(utf8, to: &bytes)
  }

  private static let zeros = [UInt8](repeating: 0, count: 4_096)

  /// The common case in one pass over the bytes: text whose only escapes are quotes and
  /// backslashes (a JSON body inside a capture), written through a pointer into room for
  /// twice the text. Returns the bytes written; nil at the first control or invisible
  /// character (`appendEscapedAny` takes the text then).
  private static func quotesOnlyEscaped(
    _ utf8: UnsafeBufferPointer<UInt8>, into base: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    guard let source = utf8.baseAddress else { return 0 }
    var to = base
    var from = source
    let last = source + utf8.count
    // Eight bytes at a time: the plain ones before the first that needs a look are copied
    // in one store (a JSON body has a quote every few bytes), then that one is escaped.
    while from < last {
      if last - from >= 8 {
        let word = UnsafeRawPointer(from).loadUnaligned(as: UInt64.self)
        let flags = escapeFlags(word)
        // Room is made for twice the text, so eight bytes always fit here.
        UnsafeMutableRawPointer(to).storeBytes(of: word, as: UInt64.self)
        let plain = flags == 0 ? 8 : flags.trailingZeroBitCount >> 3
        to += plain
        from += plain
        if plain == 8 { continue }
      }
      guard escapeOne(from: &from, before: last, to: &to) else { return nil }
    }
    return to - base
  }

  /// One byte (or one multi-byte scalar) of `quotesOnlyEscaped`'s text, copied or escaped;
  /// false at a control or invisible character.
  @inline(__always)
  private static func escapeOne(
    from: inout UnsafePointer<UInt8>, before last: UnsafePointer<UInt8>,
    to: inout UnsafeMutablePointer<UInt8>
  ) -> Bool {
    let byte = from.pointee
    switch byte {
    case 0x22, 0x5C:
      to.initialize(to: 0x5C)
      (to + 1).initialize(to: byte)
      to += 2
      from += 1
    case 0x20..<0x7F:
      to.initialize(to: byte)
      to += 1
      from += 1
    default:
      // A lead byte's scalar must end before the text does (valid UTF-8 always does).
      guard byte >= 0x80, (byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2) <= last - from else {
        return false
      }
      let (scalar, length) = scalar(
        in: UnsafeBufferPointer(start: from, count: last - from), at: 0)
      guard !TerminalText.isUnsafe(scalar) else { return false }
      to.initialize(from: from, count: length)
      to += length
      from += length
    }
    return true
  }

  /// How many bytes from `start` need no escape (printable ASCII but `"` and `\`), read eight
  /// at a time: a capture escapes every body and header, and most of their bytes are such runs.
  @inline(__always)
  private static func plainRun(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
    var offset = 0
    while offset + 8 <= count {
      let word = UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)
      if escapeFlags(word) != 0 { break }
      offset += 8
    }
    while offset < count, isPlain(start[offset]) { offset += 1 }
    return offset
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

  /// Printable ASCII but `"` and `\`: copied as it is.
  @inline(__always)
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C
  }

  private static func appendEscapedAny(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8])
  {
    var run = 0
    var index = 0
    func flush() {
      if run < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index])) }
    }
    guard let base = utf8.baseAddress else { return }
    while index < utf8.count {
      index += plainRun(base + index, utf8.count - index)
      guard index < utf8.count else { break }
      let byte = utf8[index]
      if byte >= 0x80 {
        let (scalar, length) = scalar(in: utf8, at: index)
        guard TerminalText.isUnsafe(scalar) else {
          index += length
          continue
        }
        flush()
        appendEscape(scalar.value, to: &bytes)
        index += length
        run = index
        continue
      }
      flush()
      if let letter = shortEscape(byte) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(letter)
      } else {
        appendEscape(UInt32(byte), to: &bytes)
      }
      index += 1
      run = index
    }
    flush()
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
