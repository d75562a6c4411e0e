/// The fast path for reading a registration body: one pass over the bytes for the shape every
/// SDK sends (an object of strings, booleans, a whole-number badge, tags and attributes).
/// It reads strict JSON only. Anything else, or anything it is not sure of (a duplicate key, a
/// number where a string is wanted, an unknown key holding an array), gives nil, and
/// `WireDecoding` reads the body the full way (`StrictJSON`, then Foundation's decoder), which
/// says exactly what is wrong, or reads a key twice by its last value. So it never decides an
/// error; a test holds it to the full path's answer on every body it accepts. It is here
/// because `JSONDecoder` was a tenth of the receiving path's time.
enum PayloadScanner {
  static func payload(_ bytes: UnsafeRawBufferPointer) -> RegistrationPayload? {
    var scanner = Scanner(bytes: bytes.assumingMemoryBound(to: UInt8.self))
    return scanner.object()
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    /// The known keys met so far, a bit each, and the others: a key twice is left to
    /// Foundation.
    var seenKnown: UInt32 = 0
    var seenOther: [ArraySlice<UInt8>] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func object() -> RegistrationPayload? {
      var payload = RegistrationPayload()
      guard take(UInt8(ascii: "{")) else { return nil }
      if take(UInt8(ascii: "}")) { return end() ? payload : nil }
      repeat {
        guard let key = plainString(), take(UInt8(ascii: ":")) else { return nil }
        guard let index = PayloadScanner.fieldIndex(key) else {
          guard !seenOther.contains(where: { $0.elementsEqual(key) }) else { return nil }
          seenOther.append(ArraySlice(key))
          guard skipScalar() else { return nil }
          continue
        }
        guard seenKnown & (1 << index) == 0 else { return nil }
        seenKnown |= 1 << index
        guard field(PayloadScanner.fields[index].field, into: &payload) else { return nil }
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")), end() else { return nil }
      return payload
    }

    /// One field of the body into `payload`; false when its value is not what the fast path
    /// reads.
    private mutating func field(_ field: Field, into payload: inout RegistrationPayload) -> Bool {
      switch field {
      case .string(let name):
        guard let value = optionalString() else { return false }
        name.set(value, on: &payload)
      case .boolean(let name):
        guard let value = optionalBoolean() else { return false }
        name.set(value, on: &payload)
      case .badge:
        if takeNull() { return true }
        guard let value = wholeNumber() else { return false }
        payload.badge = value
      case .tags:
        if takeNull() { return true }
        guard let tags = array({ $0.string() }) else { return false }
        payload.tags = tags
      case .attributes:
        if takeNull() { return true }
        guard let attributes = array({ $0.attribute() }) else { return false }
        payload.attributes = attributes
      }
      return true
    }

    /// A string's bytes when it is ASCII with no escape (every key an SDK sends); nil
    /// otherwise.
    private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
      var index = at + 1
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
        bytes[index] != UInt8(ascii: "\\"), bytes[index] < 0x80
      {
        index += 1
      }
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      defer { at = index + 1 }
      return UnsafeBufferPointer(rebasing: bytes[(at + 1)..<index])
    }

    /// `{"key": "...", "value": "..."}`, other keys (scalars) ignored as Foundation does.
    private mutating func attribute() -> RegistrationPayload.Attribute? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var key: String?
      var value: String?
      repeat {
        guard let name = plainString(), take(UInt8(ascii: ":")) else { return nil }
        if name.elementsEqual("key".utf8) {
          guard key == nil, let read = string() else { return nil }
          key = read
        } else if name.elementsEqual("value".utf8) {
          guard value == nil, let read = string() else { return nil }
          value = read
        } else {
          // Another key: skipped, but a repeat of it is not checked here, so leave it.
          return nil
        }
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")), let key, let value else { return nil }
      return RegistrationPayload.Attribute(key: key, value: value)
    }

    private mutating func array<T>(_ element: (inout Scanner) -> T?) -> [T]? {
      guard take(UInt8(ascii: "[")) else { return nil }
      var items: [T] = []
      if take(UInt8(ascii: "]")) { return items }
      repeat {
        guard let item = element(&self) else { return nil }
        items.append(item)
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]")) ? items : nil
    }

    /// nil: not read here; `.some(nil)`: JSON null.
    private mutating func optionalString() -> String?? {
      if takeNull() { return .some(nil) }
      return string().map { .some($0) }
    }

    private mutating func optionalBoolean() -> Bool?? {
      if takeNull() { return .some(nil) }
      if takeWord("true") { return .some(true) }
      if takeWord("false") { return .some(false) }
      return nil
    }

    /// A string, a boolean or null under a key the payload does not have.
    private mutating func skipScalar() -> Bool {
      takeNull() || takeWord("true") || takeWord("false") || string() != nil
    }

    /// `0` or `-?[1-9][0-9]{0,17}`: always within Int, never a fraction or an exponent.
    private mutating func wholeNumber() -> Int? {
      skipSpace()
      var index = at
      let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
      if negative { index += 1 }
      let first = index
      var value = 0
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - first < 18 {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
      }
      let digits = index - first
      guard digits > 0, !(bytes[first] == 0x30 && (digits > 1 || negative)) else { return nil }
      if index < bytes.count, !Self.endsValue(bytes[index]) { return nil }
      at = index
      return negative ? -value : value
    }

    private static func endsValue(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        || isSpace(byte)
    }

    /// A JSON string. Raw control characters are taken as they are, as `WireDecoding` reads
    /// them; invalid UTF-8 and lone surrogates are left to Foundation.
    mutating func string() -> String? {
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
      let start = at + 1
      var index = start
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
        bytes[index] != UInt8(ascii: "\\")
      {
        index += 1
      }
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "\"") {
        at = index + 1
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // ASCII (nearly every value) needs no validating.
        if text.allSatisfy({ $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
        return String(validating: text, as: UTF8.self)
      }
      // Escaped: find the closing quote (an escape is two bytes, or more that JSONEscapes
      // checks), then decode the inside.
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      guard index < bytes.count,
        let text = JSONEscapes.decoded(UnsafeBufferPointer(rebasing: bytes[start..<index]))
      else { return nil }
      at = index + 1
      return String(validating: text, as: UTF8.self)
    }

    private mutating func takeNull() -> Bool { takeWord("null") }

    private mutating func takeWord(_ word: StaticString) -> Bool {
      skipSpace()
      let count = word.utf8CodeUnitCount
      guard at + count <= bytes.count else { return false }
      for offset in 0..<count where bytes[at + offset] != word.utf8Start[offset] { return false }
      if at + count < bytes.count, !Self.endsValue(bytes[at + count]) { return false }
      at += count
      return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      skipSpace()
      guard at < bytes.count, bytes[at] == byte else { return false }
      at += 1
      return true
    }

    private mutating func end() -> Bool {
      skipSpace()
      return at == bytes.count
    }

    private mutating func skipSpace() {
      while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
  }
}
