/// The scalars of `StrictJSON`'s reading: strings and their escapes, numbers, the three words,
/// and how an error names the byte it stopped at.
extension StrictJSON.Reader {
  /// A string, its text when `decoding` (a key: compared as the tenant compares keys, after
  /// its escapes).
  mutating func string(decoding: Bool) throws(StrictJSON.SyntaxError) -> String? {
    let start = at
    at += 1
    var plain = true
    var wide = false
    while true {
      guard let byte = peek() else {
        at = start
        throw error("a string that never ends")
      }
      switch byte {
      case UInt8(ascii: "\""):
        at += 1
        if wide, String(validating: bytes[(start + 1)..<(at - 1)], as: UTF8.self) == nil {
          at = start
          throw error("a string that is not valid UTF-8")
        }
        guard decoding else { return nil }
        let inside = bytes[(start + 1)..<(at - 1)]
        return plain ? String(decoding: inside, as: UTF8.self) : Self.unescaped(inside)
      case UInt8(ascii: "\\"):
        plain = false
        try escape()
      default:
        // Raw control characters are R6.4's exception (`WireDecoding`).
        if byte >= 0x80 { wide = true }
        at += 1
      }
    }
  }

  /// One escape, at its backslash.
  mutating func escape() throws(StrictJSON.SyntaxError) {
    let start = at
    at += 1
    guard let kind = peek() else { throw error("a string that never ends") }
    switch kind {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      at += 1
    case UInt8(ascii: "u"):
      at += 1
      guard let unit = hex4() else {
        at = start
        throw error("\\u without four hex digits")
      }
      if (0xDC00...0xDFFF).contains(unit) {
        at = start
        throw error("a lone low surrogate \\u\(String(unit, radix: 16, uppercase: true))")
      }
      if (0xD800...0xDBFF).contains(unit) {
        guard peek() == UInt8(ascii: "\\"), at + 1 < bytes.count,
          bytes[at + 1] == UInt8(ascii: "u")
        else {
          at = start
          throw error("a lone high surrogate \\u\(String(unit, radix: 16, uppercase: true))")
        }
        at += 2
        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
          at = start
          throw error(
            "a high surrogate \\u\(String(unit, radix: 16, uppercase: true)) without its low one")
        }
      }
    default:
      at = start
      throw error("an unknown escape \\\(Self.printable(kind))")
    }
  }

  mutating func hex4() -> UInt32? {
    guard let value = JSONEscapes.hex4(bytes, at: at) else { return nil }
    at += 4
    return value
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
  mutating func number() throws(StrictJSON.SyntaxError) {
    let start = at
    if peek() == UInt8(ascii: "-") { at += 1 }
    guard let first = peek(), Self.isDigit(first) else {
      throw error("a minus sign without digits")
    }
    at += 1
    if first == UInt8(ascii: "0"), let next = peek(), Self.isDigit(next) {
      at = start
      throw error("a number with a leading zero")
    }
    skipDigits()
    if peek() == UInt8(ascii: ".") {
      at += 1
      guard let digit = peek(), Self.isDigit(digit) else {
        throw error("a decimal point without digits after it")
      }
      skipDigits()
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      at += 1
      if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { at += 1 }
      guard let digit = peek(), Self.isDigit(digit) else {
        throw error("an exponent without digits")
      }
      skipDigits()
    }
    try delimited()
  }

  mutating func skipDigits() {
    while let byte = peek(), Self.isDigit(byte) { at += 1 }
  }

  mutating func word(_ word: StaticString) throws(StrictJSON.SyntaxError) {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] })
    else { throw error("expected a value, found \(Self.shown(bytes[at]))") }
    at += count
    try delimited()
  }

  /// A number or a word ends where a value may end.
  mutating func delimited() throws(StrictJSON.SyntaxError) {
    guard let byte = peek() else { return }
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
    default: throw error("unexpected \(Self.shown(byte)) after a value")
    }
  }

  func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

  mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      at += 1
    }
  }

  func error(_ what: String) -> StrictJSON.SyntaxError {
    var line = 1
    var lineStart = 0
    for index in 0..<min(at, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return StrictJSON.SyntaxError(what: what, offset: at, line: line, column: at - lineStart + 1)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// A byte as an error names it: `"x"`, or `byte 0xFF`.
  static func shown(_ byte: UInt8) -> String {
    byte >= 0x21 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : printable(byte)
  }

  static func printable(_ byte: UInt8) -> String {
    byte >= 0x21 && byte < 0x7F
      ? String(Character(Unicode.Scalar(byte)))
      : "byte 0x" + String(byte, radix: 16, uppercase: true)
  }

  /// A key's text after its escapes (already checked, so never nil; a replacement character
  /// if ever it were).
  static func unescaped(_ inside: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    guard let text = JSONEscapes.decoded(UnsafeBufferPointer(rebasing: inside)) else {
      return "\u{FFFD}"
    }
    return String(decoding: text, as: UTF8.self)
  }
}
