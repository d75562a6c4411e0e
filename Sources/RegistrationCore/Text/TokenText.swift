/// How a secret prints: never whole.
public enum TokenText {
  /// The first four characters and the length, enough to tell two tokens apart; a short one
  /// only its length.
  public static func masked(_ value: String) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(24)
    appendMasked(value, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether `value` is already a mask `masked` or `fingerprinted` made (`rs-0…(35 chars)`,
  /// `rs-0…(35 chars) #1a2b3c4d`, `…(8 chars)`), as in a capture RegScope wrote: shown as it
  /// is, never masked again (a mask of a mask says the wrong length and fingerprint).
  public static func isMasked(_ value: String) -> Bool {
    guard let ellipsis = value.firstIndex(of: "…") else { return false }
    let head = value[..<ellipsis].count
    var rest = Array(value[value.index(after: ellipsis)...].utf8)[...]
    guard rest.first == UInt8(ascii: "(") else { return false }
    rest = rest.dropFirst()
    let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    guard (1...18).contains(digits.count), let length = Int(String(decoding: digits, as: UTF8.self))
    else {
      return false
    }
    // A mask shows the first four characters of a token of 12 or more, none of a shorter one.
    guard head == (length >= 12 ? 4 : 0) else { return false }
    rest = rest.dropFirst(digits.count)
    guard rest.starts(with: " chars)".utf8) else { return false }
    rest = rest.dropFirst(7)
    if rest.isEmpty { return true }
    guard rest.starts(with: " #".utf8), rest.count == 10 else { return false }
    return rest.dropFirst(2).allSatisfy {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
    }
  }

  /// `masked(value)` written into `text`, with no string made on the way: a capture masks a
  /// new subscriber token on every fleet registration.
  static func appendMasked(_ value: String, to text: inout [UInt8]) {
    // A token is ASCII: its characters are its bytes (but for CR LF, one character), counted
    // without walking graphemes, and read in place.
    var value = value
    let ascii = value.withUTF8 { $0.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
    let count = ascii ? value.utf8.count : value.count
    if count >= 12 {
      if ascii {
        value.withUTF8 { text.append(contentsOf: UnsafeBufferPointer(rebasing: $0.prefix(4))) }
      } else {
        text.append(contentsOf: String(value.prefix(4)).utf8)
      }
    }
    text.append(contentsOf: "…(".utf8)
    appendDecimal(count, to: &text)
    text.append(contentsOf: " chars)".utf8)
  }

  private static func appendDecimal(_ value: Int, to text: inout [UInt8]) {
    // Most significant digit first, straight onto the end: reversing a slice of `text` in
    // place copied the whole buffer.
    let rest = value.magnitude
    var scale: UInt = 1
    while rest / scale >= 10 { scale *= 10 }
    repeat {
      text.append(UInt8(ascii: "0") + UInt8(rest / scale % 10))
      scale /= 10
    } while scale > 0
  }
}

extension TokenText {
  /// Masked, with a short fingerprint of the whole (32 bits of a hash of it): two tokens
  /// that differ print differently, so a masked capture still shows whether the app sent back
  /// the token it was given, and the token itself cannot be read back from 32 bits.
  public static func fingerprinted(_ value: String) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(48)
    appendFingerprinted(value, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// `fingerprinted(value)` written into `text`, with no string made on the way: a capture
  /// writes a new subscriber token's on every fleet registration.
  public static func appendFingerprinted(_ value: String, to text: inout [UInt8]) {
    appendMasked(value, to: &text)
    text.append(contentsOf: " #".utf8)
    let hash = fingerprint(value)
    let digits: StaticString = "0123456789abcdef"
    for shift in stride(from: 28, through: 0, by: -4) {
      text.append(digits.utf8Start[Int((hash >> UInt32(shift)) & 0xF)])
    }
  }

  /// The top 32 bits of the value's `StableHash`. Not a cryptographic digest, and needs none:
  /// 32 bits of any hash tell nothing of a token longer than that, and a capture fingerprints
  /// every new subscriber token of a fleet (a SHA-256 each was a fiftieth of the receiving
  /// path).
  static func fingerprint(_ value: String) -> UInt32 {
    UInt32(truncatingIfNeeded: StableHash.of(value) >> 32)
  }
}

extension TokenText {
  /// `prefix` then `bytes` in lowercase hex: a token made of random bytes.
  public static func hex(prefix: String, _ bytes: UnsafeRawBufferPointer) -> String {
    // Written straight into the string's storage: a fleet makes a token a registration.
    var prefix = prefix
    return prefix.withUTF8 { head in
      String(unsafeUninitializedCapacity: head.count + 2 * bytes.count) { out in
        let digits: StaticString = "0123456789abcdef"
        var at = 0
        for byte in head {
          out[at] = byte
          at += 1
        }
        for byte in bytes {
          out[at] = digits.utf8Start[Int(byte >> 4)]
          out[at + 1] = digits.utf8Start[Int(byte & 0xF)]
          at += 2
        }
        return at
      }
    }
  }
}
