import RegistrationCore

/// Replaces many strings at once in a text: each pattern found by its first four bytes, the
/// longest pattern first where several start at one place, so the text is read once however
/// many values a bundle hides (a capture of a fleet names thousands of devices).
struct BundleReplacer: Sendable {
  private var byPrefix: [UInt32: [(pattern: [UInt8], replacement: [UInt8])]] = [:]
  /// Whole values: a string that is exactly one of these is replaced, however short.
  private(set) var whole: [String: String] = [:]

  var isEmpty: Bool { whole.isEmpty }

  /// `pattern` replaced by `replacement` wherever it stands when it has four bytes or more; a
  /// shorter one only as a whole string, or quoted (`"ab"`) in a sentence.
  mutating func add(_ pattern: String, _ replacement: String) {
    guard !pattern.isEmpty, pattern != replacement else { return }
    whole[pattern] = replacement
    let bytes = Array(pattern.utf8)
    if bytes.count >= 4 {
      insert(bytes, Array(replacement.utf8))
    } else if bytes.count >= 2 {
      insert(Array("\"\(pattern)\"".utf8), Array("\"\(replacement)\"".utf8))
    }
  }

  private mutating func insert(_ pattern: [UInt8], _ replacement: [UInt8]) {
    let key = Self.prefix(pattern, at: 0)
    var list = byPrefix[key] ?? []
    guard !list.contains(where: { $0.pattern == pattern }) else { return }
    list.append((pattern, replacement))
    list.sort { $0.pattern.count > $1.pattern.count }
    byPrefix[key] = list
  }

  private static func prefix(_ bytes: [UInt8], at index: Int) -> UInt32 {
    UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
      | UInt32(bytes[index + 3])
  }

  func replacing(in text: String) -> String {
    if let replaced = whole[text] { return replaced }
    let bytes = Array(text.utf8)
    let replaced = replacing(bytes)
    return replaced == bytes ? text : String(decoding: replaced, as: UTF8.self)
  }

  func replacing(_ bytes: [UInt8]) -> [UInt8] {
    guard !byPrefix.isEmpty, bytes.count >= 4 else { return bytes }
    var out: [UInt8] = []
    var index = 0
    var copiedTo = 0
    while index + 4 <= bytes.count {
      guard let candidates = byPrefix[Self.prefix(bytes, at: index)],
        let found = candidates.first(where: { matches($0.pattern, bytes, at: index) })
      else {
        index += 1
        continue
      }
      if out.isEmpty { out.reserveCapacity(bytes.count) }
      out += bytes[copiedTo..<index]
      out += found.replacement
      index += found.pattern.count
      copiedTo = index
    }
    guard copiedTo > 0 else { return bytes }
    out += bytes[copiedTo...]
    return out
  }

  private func matches(_ pattern: [UInt8], _ bytes: [UInt8], at index: Int) -> Bool {
    guard index + pattern.count <= bytes.count else { return false }
    for offset in 4..<pattern.count where bytes[index + offset] != pattern[offset] {
      return false
    }
    return true
  }

  /// Whether any pattern stands in `bytes` (a bundle checked before it is written).
  func occurs(in bytes: [UInt8]) -> Bool { replacing(bytes) != bytes }
}

/// `--redact`: a value replaced by its keyed hash, HMAC-SHA256 under a key drawn for this
/// bundle alone and never written: one value is one hash inside the bundle (a device's
/// registrations still line up), and nothing in it leads back to the value.
struct KeyedHash: Sendable {
  private let key: [UInt8]

  init() {
    var generator = SystemRandomNumberGenerator()
    key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  /// `rd-` and the first 64 bits of the HMAC, in hex.
  func hashed(_ value: String) -> String {
    "rd-" + Digest.hex(Digest.hmacSHA256(key: key, Array(value.utf8)).prefix(8))
  }
}
