import Crypto
import Synchronization

/// How a secret prints: never whole.
public enum TokenText {
  /// The first four characters and the length, enough to tell two tokens apart; a short one
  /// only its length.
  public static func masked(_ value: String) -> String {
    // A token is ASCII: its characters are its bytes (but for CR LF, one character), counted
    // without walking graphemes (a capture masks a new token on every fleet registration).
    let ascii = value.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    let count = ascii ? value.utf8.count : value.count
    guard count >= 12 else { return "…(\(count) chars)" }
    let shown =
      ascii ? String(decoding: value.utf8.prefix(4), as: UTF8.self) : String(value.prefix(4))
    return shown + "…(\(count) chars)"
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
    var hex: [UInt8] = []
    hex.reserveCapacity(8)
    let digits = Array("0123456789abcdef".utf8)
    for byte in SHA256.hash(data: Array(value.utf8)).prefix(4) {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0xF)])
    }
    return masked(value) + " #" + String(decoding: hex, as: UTF8.self)
  }
}
