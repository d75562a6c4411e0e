/// A registration body's JSON read as a strict reader (RFC 8259) reads it, and as the tenant
/// does: the one check every reading of a body goes through before Foundation's decoder,
/// which takes a trailing comma, a number like `01` under a key it skips, and a key twice
/// (keeping the first value, where the tenant keeps the last). One pass, no recursion.
///
/// The one exception to strictness is R6.4's: raw control characters inside strings, which
/// the SDK documentation's own example carries (`WireDecoding`).
enum StrictJSON {
  /// Why the body is not JSON, and where.
  struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    var what: String
    /// Bytes from the body's start.
    var offset: Int
    var line: Int
    var column: Int

    var description: String { "\(what) at line \(line), column \(column) (byte \(offset))" }
  }

  /// What reading found besides the syntax: the keys an object carried more than once, and
  /// the members a last-value reading drops (each earlier occurrence, with its comma).
  struct Reading: Sendable {
    var duplicates: [RegistrationPayload.DuplicateKey] = []
    var superseded: [Range<Int>] = []
  }

  /// Containers deeper than this are refused: a body of the SDK's is three deep.
  static let deepest = 512
  /// Duplicated keys said of one body, and the bytes each value is shown with: a hostile body
  /// cannot make a finding of its megabytes.
  static let duplicatesSaid = 16
  static let valueShown = 64

  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Reading, SyntaxError> {
    var reader = Reader(bytes: bytes)
    do throws(SyntaxError) {
      try reader.document()
      return .success(reader.reading)
    } catch {
      return .failure(error)
    }
  }

  /// `bytes` with the superseded members taken out: every object keeps only the last value of
  /// each key, so a decoder that keeps the first reads what the tenant reads.
  static func lastValuesOnly(_ bytes: UnsafeBufferPointer<UInt8>, dropping ranges: [Range<Int>])
    -> [UInt8]
  {
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var at = 0
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= at {
      // A range inside one already dropped (a duplicate within a superseded member) is gone.
      kept.append(contentsOf: bytes[at..<range.lowerBound])
      at = range.upperBound
    }
    kept.append(contentsOf: bytes[at...])
    return kept
  }

  private struct Member {
    var key: String
    var start: Int
    var valueStart = 0
    var valueEnd = 0
    /// Past the comma after the value: what dropping this member takes out.
    var end = 0
  }

  private struct Container {
    var isObject: Bool
    /// Where it is in the body, as a finding names it: `attributes[0]`; empty for the body.
    var path: String
    /// Items begun so far: 0 until the first.
    var count = 0
    var members: [Member] = []
    /// How many times each key was met.
    var seen: [String: Int] = [:]
    /// The keys met again, each once, in the order first repeated.
    var repeated: [String] = []
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    var stack: [Container] = []
    var reading = Reading()

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The body: its value, then each open container's items in turn (a loop, not a
    /// recursion: a deep body costs no stack).
    mutating func document() throws(SyntaxError) {
      try value(path: "")
      // The innermost container's facts are read, never a copy of it kept: a copy held while
      // its members change would copy them all at each comma.
      while let open = stack.indices.last {
        let isObject = stack[open].isObject
        skipSpace()
        guard let byte = peek() else {
          throw error(isObject ? "the body ends inside an object" : "the body ends inside an array")
        }
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if byte == close {
          at += 1
          finish(stack.removeLast())
          continue
        }
        if stack[open].count == 0 {
          try item()
          continue
        }
        guard byte == UInt8(ascii: ",") else {
          throw error("expected \",\" or \"\(isObject ? "}" : "]")\", found \(Self.shown(byte))")
        }
        let comma = at
        at += 1
        if isObject { stack[open].members[stack[open].members.count - 1].end = at }
        skipSpace()
        if let next = peek(), next == close {
          at = comma
          throw error("a trailing comma before \"\(isObject ? "}" : "]")\": JSON allows none")
        }
        try item()
      }
      skipSpace()
      if let byte = peek() { throw error("text after the JSON value: \(Self.shown(byte))") }
    }

    /// The next member of the innermost object, or element of the innermost array.
    private mutating func item() throws(SyntaxError) {
      let index = stack.count - 1
      let path = stack[index].path
      let count = stack[index].count
      stack[index].count += 1
      guard stack[index].isObject else {
        try value(path: "\(path)[\(count)]")
        return
      }
      skipSpace()
      let start = at
      guard peek() == UInt8(ascii: "\"") else {
        throw error("expected a key in double quotes, found \(peek().map(Self.shown) ?? "the end")")
      }
      let key = try string(decoding: true) ?? ""
      skipSpace()
      guard peek() == UInt8(ascii: ":") else {
        throw error("expected \":\" after the key, found \(peek().map(Self.shown) ?? "the end")")
      }
      at += 1
      skipSpace()
      var member = Member(key: key, start: start)
      member.valueStart = at
      stack[index].seen[key, default: 0] += 1
      if stack[index].seen[key] == 2 { stack[index].repeated.append(key) }
      stack[index].members.append(member)
      try value(path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// A value; a container is opened (its items are read by `document`'s loop).
    private mutating func value(path: String) throws(SyntaxError) {
      skipSpace()
      guard let byte = peek() else { throw error("expected a value, found the end") }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < StrictJSON.deepest else {
          throw error("nested deeper than \(StrictJSON.deepest) levels")
        }
        at += 1
        // Its items are `document`'s to read.
        stack.append(Container(isObject: byte == UInt8(ascii: "{"), path: path))
        return
      case UInt8(ascii: "\""): _ = try string(decoding: false)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      case UInt8(ascii: "t"): try word("true")
      case UInt8(ascii: "f"): try word("false")
      case UInt8(ascii: "n"): try word("null")
      case UInt8(ascii: ","):
        throw error("a comma where a value belongs")
      default:
        throw error("expected a value, found \(Self.shown(byte))")
      }
      valueEnded()
    }

    /// Marks where the innermost object's newest member's value ends (a scalar's end).
    private mutating func valueEnded() {
      guard let open = stack.indices.last, stack[open].isObject, !stack[open].members.isEmpty
      else { return }
      stack[open].members[stack[open].members.count - 1].valueEnd = at
    }

    /// A container closed: it ends its parent's member, and its repeated keys are said.
    private mutating func finish(_ container: Container) {
      valueEnded()
      guard !container.repeated.isEmpty else { return }
      var occurrences: [String: [Member]] = [:]
      for key in container.repeated { occurrences[key] = [] }
      for member in container.members where occurrences[member.key] != nil {
        occurrences[member.key, default: []].append(member)
      }
      for key in container.repeated {
        let occurrences = occurrences[key] ?? []
        for earlier in occurrences.dropLast() {
          reading.superseded.append(earlier.start..<earlier.end)
        }
        guard reading.duplicates.count < StrictJSON.duplicatesSaid else { continue }
        reading.duplicates.append(
          RegistrationPayload.DuplicateKey(
            key: container.path.isEmpty ? key : "\(container.path).\(key)",
            values: occurrences.map { text($0.valueStart..<$0.valueEnd) }))
      }
    }

    /// A value's JSON text as a finding shows it, cut at `valueShown` bytes.
    private func text(_ range: Range<Int>) -> String {
      let slice = bytes[range]
      guard slice.count > StrictJSON.valueShown else {
        return String(decoding: slice, as: UTF8.self)
      }
      var end = range.lowerBound + StrictJSON.valueShown
      while end > range.lowerBound, bytes[end] & 0xC0 == 0x80 { end -= 1 }
      return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self) + "…"
    }

    /// A string, its text when `decoding` (a key: compared as the tenant compares keys, after
    /// its escapes).
    private mutating func string(decoding: Bool) throws(SyntaxError) -> String? {
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
    private mutating func escape() throws(SyntaxError) {
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

    private mutating func hex4() -> UInt32? {
      guard at + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for offset in 0..<4 {
        let byte = bytes[at + offset]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      at += 4
      return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(SyntaxError) {
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

    private mutating func skipDigits() {
      while let byte = peek(), Self.isDigit(byte) { at += 1 }
    }

    private mutating func word(_ word: StaticString) throws(SyntaxError) {
      let count = word.utf8CodeUnitCount
      guard at + count <= bytes.count,
        (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] })
      else { throw error("expected a value, found \(Self.shown(bytes[at]))") }
      at += count
      try delimited()
    }

    /// A number or a word ends where a value may end.
    private mutating func delimited() throws(SyntaxError) {
      guard let byte = peek() else { return }
      switch byte {
      case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
      default: throw error("unexpected \(Self.shown(byte)) after a value")
      }
    }

    private func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
      while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        at += 1
      }
    }

    private func error(_ what: String) -> SyntaxError {
      var line = 1
      var lineStart = 0
      for index in 0..<min(at, bytes.count) where bytes[index] == 0x0A {
        line += 1
        lineStart = index + 1
      }
      return SyntaxError(what: what, offset: at, line: line, column: at - lineStart + 1)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
      byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A byte as an error names it: `"x"`, or `byte 0xFF`.
    private static func shown(_ byte: UInt8) -> String {
      byte >= 0x21 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : printable(byte)
    }

    private static func printable(_ byte: UInt8) -> String {
      byte >= 0x21 && byte < 0x7F
        ? String(Character(Unicode.Scalar(byte)))
        : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// A key's text after its escapes (already checked).
    private static func unescaped(_ inside: Slice<UnsafeBufferPointer<UInt8>>) -> String {
      var text: [UInt8] = []
      var index = inside.startIndex
      func hex(_ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
          let byte = inside[at + offset]
          let digit: UInt8 =
            isDigit(byte) ? byte - 48 : (byte | 0x20) - UInt8(ascii: "a") + 10
          value = value << 4 | UInt32(digit)
        }
        return value
      }
      while index < inside.endIndex {
        let byte = inside[index]
        guard byte == UInt8(ascii: "\\") else {
          text.append(byte)
          index += 1
          continue
        }
        let kind = inside[index + 1]
        index += 2
        switch kind {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = hex(index)
          index += 4
          if (0xD800...0xDBFF).contains(scalar) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(index + 2) - 0xDC00)
            index += 6
          }
          text.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default: text.append(kind)
        }
      }
      return String(decoding: text, as: UTF8.self)
    }
  }
}
