/// SHA-256 and HMAC-SHA256 for what RegScope writes of itself: a debug bundle's manifest (each
/// file's digest) and its redaction (keyed hashes, RFC 2104). The digest is `SHADigest`'s, so
/// no cryptography library comes into the build.
public enum Digest {
  public static func sha256(_ bytes: [UInt8]) -> [UInt8] { SHADigest.sha256(bytes) }

  /// HMAC-SHA256 (RFC 2104): a key longer than the block is hashed first, then padded.
  public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
    let block = 64
    var padded = key.count > block ? SHADigest.sha256(key) : key
    padded += [UInt8](repeating: 0, count: block - padded.count)
    let inner = SHADigest.sha256(padded.map { $0 ^ 0x36 } + message)
    return SHADigest.sha256(padded.map { $0 ^ 0x5C } + inner)
  }

  /// Lowercase hex.
  public static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
