import Crypto
import Synchronization

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

  /// `masked(value)` written into `text`, with no string made on the way: a capture masks a
  /// new subscriber token on every fleet registration.
  static func appendMasked(_ value: String, to text: inout [UInt8]) {
    // A token is ASCII: its characters are its bytes (but for CR LF, one character), counted
    // without walking graphemes.
    let ascii = value.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    let count = ascii ? value.utf8.count : value.count
    if count >= 12 {
      if ascii {
        text.append(contentsOf: value.utf8.prefix(4))
      } else {
        text.append(contentsOf: String(value.prefix(4)).utf8)
      }
    }
    text.append(contentsOf: "…(".utf8)
    appendDecimal(count, to: &text)
    text.append(contentsOf: " chars)".utf8)
  }

  private static func appendDecimal(_ value: Int, to text: inout [UInt8]) {
    let start = text.count
    var rest = value.magnitude
    repeat {
      text.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    text[start...].reverse()
  }
}

extension TokenText {
  /// Masked, with a short fingerprint of the whole (32 bits of its SHA-256): two tokens that
  /// differ print differently, so a masked capture still shows whether the app sent back the
  /// token it was given, and the token itself cannot be read back from it.
  public static func fingerprinted(_ value: String) -> String {
    if let known = recent.withLock({ $0[value] }) { return known }
    let shown = fingerprint(value)
    recent.withLock { recent in
      if recent.count >= 64 { recent.removeAll(keepingCapacity: true) }
      recent[value] = shown
    }
    return shown
  }

  /// A capture masks the same few tokens on every request: each is hashed once. Held only
  /// as long as the process runs, never written anywhere.
  private static let recent = Mutex<[String: String]>([:])

  private static func fingerprint(_ value: String) -> String {
    var value = value
    // Hashed from the string's own bytes, written into one buffer: a capture fingerprints
    // every new subscriber token of a fleet.
    let digest = value.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    var text: [UInt8] = []
    text.reserveCapacity(40)
    appendMasked(value, to: &text)
    text.append(contentsOf: " #".utf8)
    let digits: StaticString = "0123456789abcdef"
    digest.withUnsafeBytes { bytes in
      for byte in bytes.prefix(4) {
        text.append(digits.utf8Start[Int(byte >> 4)])
        text.append(digits.utf8Start[Int(byte & 0xF)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}

extension TokenText {
  /// `prefix` then `bytes` in lowercase hex: a token made of random bytes.
  public static func hex(prefix: String, _ bytes: UnsafeRawBufferPointer) -> String {
    var text = Array(prefix.utf8)
    text.reserveCapacity(text.count + 2 * bytes.count)
    let digits: StaticString = "0123456789abcdef"
    for byte in bytes {
      text.append(digits.utf8Start[Int(byte >> 4)])
      text.append(digits.utf8Start[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
