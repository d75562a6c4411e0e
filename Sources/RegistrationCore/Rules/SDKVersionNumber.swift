/// SDK versions as the SDKs number them (`9.0.3`): read in one place for the profiles, the
/// judge, the dumps and the receiver. Text that is not a number reads as none (never a trap).
public enum SDKVersionNumber {
  /// The major (`9` of `9.0.3`), nil when the text does not start with a number.
  public static func major(_ version: String) -> Int? {
    version.split(separator: ".", maxSplits: 1).first.flatMap { Int($0) }
  }

  /// Whether `version` is later than `other`, part by part: `9.0.10` is later than `9.0.9`.
  public static func isLater(_ version: String, than other: String) -> Bool {
    let numbers = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
    let (a, b) = (numbers(version), numbers(other))
    for index in 0..<max(a.count, b.count) {
      let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
      if x != y { return x > y }
    }
    return false
  }
}
