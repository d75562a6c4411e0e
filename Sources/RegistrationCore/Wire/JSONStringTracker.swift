/// Where JSON text stands, a byte at a time: inside a string (its escapes followed) or not.
/// For readers that look at the structure without building it.
public struct JSONStringTracker: Sendable {
  public private(set) var inString = false
  /// Just after a backslash inside a string: the next byte is escaped.
  public private(set) var escaped = false

  public init() {}

  /// Takes `byte`; whether it stood outside every string (a quote that opens or closes one
  /// belongs to the string).
  public mutating func outside(_ byte: UInt8) -> Bool {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      return false
    }
    if byte == UInt8(ascii: "\"") {
      inString = true
      return false
    }
    return true
  }
}
