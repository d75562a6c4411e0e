/// SDK versions as the SDKs number them (`9.0.3`): read by one grammar for `--sdk`, the
/// profiles, the judge, the dumps and the receiver. A version is one to four parts joined by
/// dots, each digits alone (no sign, no space, no leading zero) and at most `partDigits` of
/// them: `Int(_:)` alone took `8.-1.0` and `8.+2.+1`, and a 20-digit part overflowed to "no
/// version" without saying so. Text that is not a version reads as none (never a trap).
public enum SDKVersionNumber {
  /// Digits a part may have: room for any SDK's numbering, never near `Int`'s limit.
  public static let partDigits = 6
  /// Parts a version may have (`10.0.0`, and a build's fourth).
  public static let mostParts = 4

  /// What a version looks like, for an error that refuses one.
  public static let grammar =
    "three whole numbers joined by dots, like 8.2.1 (digits only: no sign, no leading zero, at most \(partDigits) digits each)"

  /// The parts of `version`, or nil when it is not a version by the grammar above.
  public static func parts(_ version: String) -> [Int]? {
    var parts: [Int] = []
    var value = 0
    var digits = 0
    var leadingZero = false
    for byte in version.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard digits < partDigits, !leadingZero else { return nil }
        leadingZero = digits == 0 && byte == UInt8(ascii: "0")
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
      case UInt8(ascii: "."):
        guard digits > 0, parts.count + 1 < mostParts else { return nil }
        parts.append(value)
        (value, digits, leadingZero) = (0, 0, false)
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    parts.append(value)
    return parts
  }

  /// `major.minor.patch`, or nil when `version` is not a version of exactly three parts.
  public static func triple(_ version: String) -> (major: Int, minor: Int, patch: Int)? {
    guard let parts = parts(version), parts.count == 3 else { return nil }
    return (parts[0], parts[1], parts[2])
  }

  /// The major (`9` of `9.0.3`), nil when the text is not a version.
  public static func major(_ version: String) -> Int? { parts(version)?.first }

  /// Whether `version` is later than `other`, part by part: `9.0.10` is later than `9.0.9`.
  /// Text that is not a version is earlier than every version (and not later than another
  /// such text).
  public static func isLater(_ version: String, than other: String) -> Bool {
    guard let a = parts(version) else { return false }
    guard let b = parts(other) else { return true }
    for index in 0..<max(a.count, b.count) {
      let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
      if x != y { return x > y }
    }
    return false
  }
}
