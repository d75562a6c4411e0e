/// A JSON object's key as the tenant compares keys: by its UTF-8 bytes, after its escapes.
///
/// Swift's `String` compares and hashes by canonical equivalence: `"subscriber\u{212A}ey"`
/// (KELVIN SIGN) is `==` to `"subscriberKey"`, and `"caf\u{E9}"` (NFC) to `"cafe\u{301}"`
/// (NFD). As keys they are different, and a reader that keys a dictionary by `String`
/// (`[String: Int]`, `JSONSerialization`, `JSONDecoder`) merges them or takes one for the
/// other. Every reading of a key from outside compares it as an `ExactKey`.
public struct ExactKey: Hashable, Sendable, CustomStringConvertible {
  public var text: String

  public init(_ text: String) { self.text = text }

  public static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
    lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  public func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  public var description: String { text }

  /// Whether `key` is byte for byte `name`.
  public static func matches(_ key: String, _ name: String) -> Bool {
    key.utf8.elementsEqual(name.utf8)
  }

  /// Whether `key` is not one of `names` but a `String` comparison takes it for one
  /// (canonically equivalent, other bytes): a key the tenant ignores and Foundation reads.
  public static func isLookalike(_ key: String, of names: Names) -> Bool {
    names.loose.contains(key) && !names.exact.contains(ExactKey(key))
  }

  /// A set of known names, held both ways: as `String`s (canonical equivalence, what
  /// Foundation compares) and as bytes (what the tenant compares).
  public struct Names: Sendable {
    public let loose: Set<String>
    public let exact: Set<ExactKey>

    public init(_ names: some Sequence<String>) {
      loose = Set(names)
      exact = Set(names.map(ExactKey.init))
    }
  }
}
