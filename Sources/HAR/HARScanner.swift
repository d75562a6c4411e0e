import Foundation
import RegistrationCore

/// Finds the entries of a HAR document (`log.entries`) without building the document: one pass
/// over the bytes that checks the JSON's syntax, skips what is not an entry and hands over the
/// byte range of each entry. A 500 MB capture is read from its mapped file, one entry at a time,
/// never held as a tree. No recursion: nesting depth costs no stack.
struct HARScanner {
  /// Nesting deeper than this is refused: no exporter writes it, and a decoder given it
  /// would spend its stack.
  static let depthLimit = 256

  private let bytes: UnsafeRawBufferPointer
  private var index = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// Calls `entry` with the byte range of each element of `log.entries`, in order.
  static func scan(_ bytes: UnsafeRawBufferPointer, entry: (Range<Int>) throws -> Void) throws {
    var scanner = HARScanner(bytes)
    try scanner.document(entry)
  }

  /// An entry's start time, method and URL.
  struct EntryHead {
    var started: String?
    var method: String?
    var url: String?
  }

  /// Reads an entry's start time, method and URL from its bytes without building it (a
  /// 200 MB body costs nothing here): what the reader needs to tell the SDK's entries and
  /// order them. Nil when the entry is not an object or its syntax is broken.
  static func head(_ bytes: UnsafeRawBufferPointer) -> EntryHead? {
    var scanner = HARScanner(bytes)
    return try? scanner.entryHead()
  }

  private mutating func entryHead() throws -> EntryHead? {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    var head = EntryHead()
    var first = true
    while let key = try nextMember(&first) {
      switch key {
      case Names.started: head.started = try stringValue()
      case Names.request:
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
          try skipValue()
          continue
        }
        index += 1
        var firstInRequest = true
        while let name = try nextMember(&firstInRequest) {
          switch name {
          case Names.method: head.method = try stringValue()
          case Names.url: head.url = try stringValue()
          default: try skipValue()
          }
        }
      default: try skipValue()
      }
    }
    return head
  }

  /// A string value decoded (escapes included), or nil when the value is no string.
  private mutating func stringValue() throws -> String? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      try skipValue()
      return nil
    }
    let start = index
    _ = try string(keeping: false)
    let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
    if !literal.contains(UInt8(ascii: "\\")) {
      return String(
        decoding: UnsafeRawBufferPointer(rebasing: literal.dropFirst().dropLast()), as: UTF8.self)
    }
    // Rare (an exporter that writes \/): the literal alone, decoded by the JSON parser.
    return
      (try? JSONSerialization.jsonObject(
        with: Data(literal), options: .fragmentsAllowed)) as? String
  }

  private mutating func document(_ entry: (Range<Int>) throws -> Void) throws {
    skipSpace()
    if index + 3 <= bytes.count, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      index = 3  // a byte-order mark, as some Windows tools write
      skipSpace()
    }
    guard index < bytes.count else { throw problem("the file is empty", .notJSON) }
    guard bytes[index] == UInt8(ascii: "{") else {
      try skipValue()
      throw HARError(.notHAR, "the document is not a JSON object with a \"log\"")
    }
    var sawLog = false
    index += 1  // {
    var first = true
    while let key = try nextMember(&first) {
      if key == Names.log {
        sawLog = true
        try log(entry)
      } else {
        try skipValue()
      }
    }
    skipSpace()
    if index < bytes.count { throw problem("more after the end of the document", .notJSON) }
    if !sawLog { throw HARError(.notHAR, "no \"log\": this JSON is not a HAR capture") }
  }

  private mutating func log(_ entry: (Range<Int>) throws -> Void) throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      try skipValue()
      throw HARError(.notHAR, "\"log\" is not an object")
    }
    var sawEntries = false
    index += 1  // {
    var first = true
    while let key = try nextMember(&first) {
      guard key == Names.entries else {
        try skipValue()
        continue
      }
      sawEntries = true
      try entries(entry)
    }
    if !sawEntries { throw HARError(.notHAR, "\"log\" has no \"entries\"") }
  }

  /// `log.entries`: each element's range, in order.
  private mutating func entries(_ entry: (Range<Int>) throws -> Void) throws {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
      try skipValue()
      throw HARError(.notHAR, "\"log.entries\" is not a list")
    }
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      skipSpace()
      let start = index
      try skipValue()
      try entry(start..<index)
      skipSpace()
      guard index < bytes.count else { throw problem("the entries list is cut short", .notJSON) }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else {
        throw problem("expected , or ] after an entry", .notJSON)
      }
      index += 1
      return
    }
  }

  /// Inside an object: the next member's name, with the scanner at its value; nil at the
  /// object's end. `first` is true before the first member.
  private mutating func nextMember(_ first: inout Bool) throws -> ExactKey? {
    skipSpace()
    guard index < bytes.count else { throw problem("an object is cut short", .notJSON) }
    if bytes[index] == UInt8(ascii: "}") {
      index += 1
      return nil
    }
    if first {
      first = false
    } else {
      guard bytes[index] == UInt8(ascii: ",") else {
        throw problem("expected , or } in an object", .notJSON)
      }
      index += 1
      skipSpace()
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw problem("expected a member name in quotes", .notJSON)
    }
    let key = try string()
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw problem("expected : after a member name", .notJSON)
    }
    index += 1
    skipSpace()
    return ExactKey(key)
  }

  /// Skips one value of any kind, checking its syntax; containers are walked with a stack of
  /// what each open one expects next.
  private mutating func skipValue() throws {
    var open: [UInt8] = []  // the closing bracket of each container open
    var expectValue = true
    while true {
      skipSpace()
      guard index < bytes.count else { throw problem("the document is cut short", .notJSON) }
      let byte = bytes[index]
      if expectValue {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard open.count < Self.depthLimit else {
            throw problem("nested deeper than \(Self.depthLimit) levels", .tooDeep)
          }
          open.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
          index += 1
          skipSpace()
          if index < bytes.count, bytes[index] == open.last {
            index += 1
            open.removeLast()
            expectValue = false
            if open.isEmpty { return }
            continue
          }
          if open.last == UInt8(ascii: "}") { try memberName() }
          continue
        case UInt8(ascii: "\""): _ = try string(keeping: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw problem("expected a value", .notJSON)
        }
        if open.isEmpty { return }
        expectValue = false
        continue
      }
      // After a value inside a container: a comma or the container's end.
      if byte == UInt8(ascii: ",") {
        index += 1
        if open.last == UInt8(ascii: "}") { try memberName() }
        expectValue = true
      } else if byte == open.last {
        index += 1
        open.removeLast()
        if open.isEmpty { return }
      } else {
        throw problem("expected , or \(Character(UnicodeScalar(open.last ?? 0x20)))", .notJSON)
      }
    }
  }

  /// Inside an object, before a value: `"name" :`.
  private mutating func memberName() throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw problem("expected a member name in quotes", .notJSON)
    }
    _ = try string(keeping: false)
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw problem("expected : after a member name", .notJSON)
    }
    index += 1
  }

  /// A string; its text only when `keeping` (member names the scanner looks for).
  private mutating func string(keeping: Bool = true) throws -> String {
    index += 1  // "
    let start = index
    var plain = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        guard keeping else { return "" }
        // The names looked for ("log", "entries") have no escapes; an escaped name is not one.
        return plain
          ? String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
          : "\u{FFFD}"
      }
      if byte == UInt8(ascii: "\\") {
        plain = false
        index += 2
        continue
      }
      if byte < 0x20 { throw problem("a control character inside a string", .notJSON) }
      index += 1
    }
    throw problem("a string is not closed", .notJSON)
  }

  private mutating func literal(_ word: String) throws {
    for expected in word.utf8 {
      guard index < bytes.count, bytes[index] == expected else {
        throw problem("expected \(word)", .notJSON)
      }
      index += 1
    }
  }

  /// JSON's number grammar exactly: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  private mutating func number() throws {
    func digits() -> Int {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - start
    }
    func take(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    _ = take("-")
    if take("0") {
    } else if digits() == 0 {
      throw problem("expected a number", .notJSON)
    }
    if take("."), digits() == 0 {
      throw problem("expected a digit after the decimal point", .notJSON)
    }
    if take("eE") {
      _ = take("+-")
      guard digits() > 0 else { throw problem("expected a digit in the exponent", .notJSON) }
    }
  }

  private mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// An error at the scanner's position, as line and column (1-based, columns in bytes).
  private func problem(_ what: String, _ kind: HARError.Kind) -> HARError {
    let end = min(index, bytes.count)
    var line = 1
    var lineStart = 0
    for offset in 0..<end where bytes[offset] == 0x0A {
      line += 1
      lineStart = offset + 1
    }
    return HARError(kind, "line \(line), column \(end - lineStart + 1): \(what)")
  }
}
