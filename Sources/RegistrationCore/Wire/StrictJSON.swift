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

  struct Member {
    var key: String
    var start: Int
    var valueStart = 0
    var valueEnd = 0
    /// Past the comma after the value: what dropping this member takes out.
    var end = 0
  }

  struct Container {
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

  struct Reader {
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
    mutating func item() throws(SyntaxError) {
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
    mutating func value(path: String) throws(SyntaxError) {
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
    mutating func valueEnded() {
      guard let open = stack.indices.last, stack[open].isObject, !stack[open].members.isEmpty
      else { return }
      stack[open].members[stack[open].members.count - 1].valueEnd = at
    }

    /// A container closed: it ends its parent's member, and its repeated keys are said.
    mutating func finish(_ container: Container) {
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
    func text(_ range: Range<Int>) -> String {
      let slice = bytes[range]
      guard slice.count > StrictJSON.valueShown else {
        return String(decoding: slice, as: UTF8.self)
      }
      var end = range.lowerBound + StrictJSON.valueShown
      while end > range.lowerBound, bytes[end] & 0xC0 == 0x80 { end -= 1 }
      return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self) + "…"
    }
  }
}
