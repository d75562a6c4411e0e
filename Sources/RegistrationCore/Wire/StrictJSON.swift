/// A registration body's JSON read as a strict reader (RFC 8259) reads it, and as the tenant
/// does: the one check every reading of a body goes through before Foundation's decoder,
/// which takes a trailing comma, a number like `01` under a key it skips, and a key twice
/// (keeping the first value, where the tenant keeps the last). Keys are compared by their
/// bytes (`ExactKey`), as the tenant compares them, never by Unicode equivalence. One pass,
/// no recursion, work in proportion to the body: nothing is made per item but the item's own
/// key (#52: a path made per element cost the key's length times the elements).
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
    /// Keys a `String` comparison takes for a name the payload decodes, with other bytes
    /// (`"subscriber\u212Aey"` for `subscriberKey`): the tenant ignores them, Foundation's
    /// decoder would read them, so they are blanked for it. Each is the key's literal, its
    /// quotes included.
    var lookalikes: [Range<Int>] = []
    /// Bytes of text the reading made (keys, paths and values said): what holds it to the
    /// body's size, counted so a test can hold it there (#52).
    var textMade = 0

    /// Whether Foundation's decoder needs other bytes than the body's.
    var rewrites: Bool { !superseded.isEmpty || !lookalikes.isEmpty }
  }

  /// The names the payload's decoder looks up, in the body and in an attribute: a key
  /// canonically equivalent to one of them but not the same bytes is a lookalike.
  static let decodedNames = ExactKey.Names(PayloadScanner.wireKeys.map(\.0) + ["key", "value"])

  /// Containers deeper than this are refused: a body of the SDK's is three deep.
  static let deepest = 512
  /// Duplicated keys said of one body, and the bytes each value is shown with: a hostile body
  /// cannot make a finding of its megabytes.
  static let duplicatesSaid = 16
  static let valueShown = 64
  /// Values said of one duplicated key: the first seven and the last.
  static let valuesSaid = 8

  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Reading, SyntaxError> {
    var reader = Reader(bytes: bytes)
    do throws(SyntaxError) {
      try reader.document()
      return .success(reader.reading)
    } catch {
      return .failure(error)
    }
  }

  /// `bytes` as Foundation's decoder must get them to read what the tenant reads: every object
  /// keeps only the last value of each key (the superseded members taken out), and each
  /// lookalike key is blanked to `""`, a key the decoder does not look up.
  static func forDecoder(_ bytes: UnsafeBufferPointer<UInt8>, _ reading: Reading) -> [UInt8] {
    var edits = reading.superseded.map { (range: $0, blank: false) }
    edits += reading.lookalikes.map { (range: $0, blank: true) }
    // A member's drop starts where its key does: the drop (the longer) goes first, and the
    // key inside it with it.
    edits.sort {
      ($0.range.lowerBound, $1.range.upperBound) < ($1.range.lowerBound, $0.range.upperBound)
    }
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var at = 0
    for edit in edits where edit.range.lowerBound >= at {
      // An edit inside one already dropped (a duplicate within a superseded member) is gone.
      kept.append(contentsOf: bytes[at..<edit.range.lowerBound])
      if edit.blank { kept += [UInt8(ascii: "\""), UInt8(ascii: "\"")] }
      at = edit.range.upperBound
    }
    kept.append(contentsOf: bytes[at...])
    return kept
  }

  struct Member {
    var key: ExactKey
    var start: Int
    var valueStart = 0
    var valueEnd = 0
    /// Past the comma after the value: what dropping this member takes out.
    var end = 0
  }

  /// How a container's parent holds it: under a key, or at an index.
  enum Step {
    case key(String)
    case index(Int)
  }

  struct Container {
    var isObject: Bool
    /// Where its parent holds it; nil for the body. Its path (`attributes[0]`) is made from
    /// the containers open around it, and only for a finding.
    var step: Step?
    /// Items begun so far: 0 until the first.
    var count = 0
    var members: [Member] = []
    /// How many times each key was met, by its bytes.
    var seen: [ExactKey: Int] = [:]
    /// The keys met again, each once, in the order first repeated.
    var repeated: [ExactKey] = []
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
      try value(step: nil)
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
      let count = stack[index].count
      stack[index].count += 1
      guard stack[index].isObject else {
        try value(step: .index(count))
        return
      }
      skipSpace()
      let start = at
      guard peek() == UInt8(ascii: "\"") else {
        throw error("expected a key in double quotes, found \(peek().map(Self.shown) ?? "the end")")
      }
      let key = try string(decoding: true) ?? ""
      reading.textMade += key.utf8.count
      if key.utf8.contains(where: { $0 >= 0x80 }),
        ExactKey.isLookalike(key, of: StrictJSON.decodedNames)
      {
        reading.lookalikes.append(start..<at)
      }
      skipSpace()
      guard peek() == UInt8(ascii: ":") else {
        throw error("expected \":\" after the key, found \(peek().map(Self.shown) ?? "the end")")
      }
      at += 1
      skipSpace()
      let exact = ExactKey(key)
      var member = Member(key: exact, start: start)
      member.valueStart = at
      let seen = stack[index].seen[exact, default: 0] + 1
      stack[index].seen[exact] = seen
      if seen == 2 { stack[index].repeated.append(exact) }
      stack[index].members.append(member)
      try value(step: .key(key))
    }

    /// A value; a container is opened (its items are read by `document`'s loop).
    mutating func value(step: Step?) throws(SyntaxError) {
      skipSpace()
      guard let byte = peek() else { throw error("expected a value, found the end") }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < StrictJSON.deepest else {
          throw error("nested deeper than \(StrictJSON.deepest) levels")
        }
        at += 1
        // Its items are `document`'s to read.
        stack.append(Container(isObject: byte == UInt8(ascii: "{"), step: step))
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
      var occurrences: [ExactKey: [Member]] = [:]
      for key in container.repeated { occurrences[key] = [] }
      for member in container.members where occurrences[member.key] != nil {
        occurrences[member.key, default: []].append(member)
      }
      // Made once, and only when a duplicate is said: at most `duplicatesSaid` in a body.
      var path: String?
      for key in container.repeated {
        let occurrences = occurrences[key] ?? []
        for earlier in occurrences.dropLast() {
          reading.superseded.append(earlier.start..<earlier.end)
        }
        guard reading.duplicates.count < StrictJSON.duplicatesSaid else { continue }
        let at = path ?? self.path(to: container)
        path = at
        let name = Self.shortened(key.text)
        // The first values and the last (the one read): a key sent 100,000 times is said in
        // a line, not in a megabyte.
        let said =
          occurrences.count <= StrictJSON.valuesSaid
          ? occurrences[...] : occurrences.prefix(StrictJSON.valuesSaid - 1) + occurrences.suffix(1)
        let values = said.map { text($0.valueStart..<$0.valueEnd) }
        reading.textMade += name.utf8.count + values.reduce(0) { $0 + $1.utf8.count }
        reading.duplicates.append(
          RegistrationPayload.DuplicateKey(
            key: at.isEmpty ? name : "\(at).\(name)", values: values, times: occurrences.count)
        )
      }
    }

    /// Where `container` is, as a finding names it (`attributes[0]`; empty for the body):
    /// made from the containers open around it (`stack`, its parent last), each key cut as a
    /// value is shown.
    mutating func path(to container: Container) -> String {
      var path = ""
      for step in stack.map(\.step) + [container.step] {
        switch step {
        case .key(let key)?:
          let name = Self.shortened(key)
          path = path.isEmpty ? name : path + "." + name
        case .index(let index)?: path += "[\(index)]"
        case nil: continue
        }
      }
      reading.textMade += path.utf8.count
      return path
    }

    /// A key as a finding names it: cut at `valueShown` bytes, as a value is.
    static func shortened(_ key: String) -> String {
      guard key.utf8.count > StrictJSON.valueShown else { return key }
      let prefix = Array(key.utf8.prefix(StrictJSON.valueShown + 1))
      var end = StrictJSON.valueShown
      while end > 0, prefix[end] & 0xC0 == 0x80 { end -= 1 }
      return String(decoding: prefix[..<end], as: UTF8.self) + "…"
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
