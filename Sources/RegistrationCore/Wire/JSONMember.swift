import Foundation

/// A value inside a JSON document, found by its keys as the tenant finds keys: by their bytes
/// after their escapes (`ExactKey`), a key twice by its last. For a registration body held
/// inside another document (an iOS state dump's `Current Registration`), whose own keys must
/// reach `WireDecoding` as they were written: a `JSONSerialization` round trip keys its
/// dictionaries by `String` and merges `"subscriber\u212Aey"` into `subscriberKey` (#51).
public enum JSONMember {
  /// The bytes of the value under `path` (one object key a step) in `data`, a document already
  /// read as JSON; nil when a step is missing or its container is no object.
  public static func bytes(at path: [String], in data: Data) -> Data? {
    data.withUnsafeBytes { raw -> Data? in
      let bytes = raw.assumingMemoryBound(to: UInt8.self)
      var range = 0..<bytes.count
      for key in path {
        guard let found = member(ExactKey(key), of: range, in: bytes) else { return nil }
        range = found
      }
      return Data(bytes[range])
    }
  }

  /// The value of the last member `key` of the object that is `range`.
  static func member(_ key: ExactKey, of range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    var at = skipSpace(range.lowerBound, bytes, before: range.upperBound)
    guard at < range.upperBound, bytes[at] == UInt8(ascii: "{") else { return nil }
    at += 1
    var found: Range<Int>?
    while true {
      at = skipSpace(at, bytes, before: range.upperBound)
      guard at < range.upperBound, bytes[at] == UInt8(ascii: "\"") else { return found }
      let keyEnd = stringEnd(at, bytes, before: range.upperBound)
      guard keyEnd - 1 > at else { return found }
      let name = JSONEscapes.decoded(UnsafeBufferPointer(rebasing: bytes[(at + 1)..<(keyEnd - 1)]))
      at = skipSpace(keyEnd, bytes, before: range.upperBound)
      guard at < range.upperBound, bytes[at] == UInt8(ascii: ":") else { return found }
      let start = skipSpace(at + 1, bytes, before: range.upperBound)
      let end = valueEnd(start, bytes, before: range.upperBound)
      if let name, ExactKey(String(decoding: name, as: UTF8.self)) == key { found = start..<end }
      at = skipSpace(end, bytes, before: range.upperBound)
      guard at < range.upperBound, bytes[at] == UInt8(ascii: ",") else { return found }
      at += 1
    }
  }

  /// Past the string literal whose quote is at `start`.
  static func stringEnd(_ start: Int, _ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
    var at = start + 1
    while at < end, bytes[at] != UInt8(ascii: "\"") {
      at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
    }
    return min(at + 1, end)
  }

  /// Past the value starting at `start`: a string, a container (its strings skipped whole),
  /// or a scalar.
  static func valueEnd(_ start: Int, _ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
    guard start < end else { return end }
    switch bytes[start] {
    case UInt8(ascii: "\""): return stringEnd(start, bytes, before: end)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var at = start
      while at < end {
        switch bytes[at] {
        case UInt8(ascii: "\""):
          at = stringEnd(at, bytes, before: end)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return at + 1 }
        default: break
        }
        at += 1
      }
      return end
    default:
      var at = start
      while at < end, !",}] \t\r\n".utf8.contains(bytes[at]) { at += 1 }
      return at
    }
  }

  static func skipSpace(_ start: Int, _ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
    var at = start
    while at < end, " \t\r\n".utf8.contains(bytes[at]) { at += 1 }
    return at
  }
}
