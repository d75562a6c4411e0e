import EngagementCore
import Foundation
import RegistrationCore

/// Makes an SDK entry with huge strings cheap to build, in its own bytes, before any of it
/// becomes a `String`: the judge then holds about the capture's size, not four copies of its
/// largest entry.
///
/// The entry is rewritten in place, front to back (every change shortens it, so writing never
/// overtakes reading), and the part that is left is what `JSONSerialization` builds:
/// - `request.postData.text` past `bodyInPlace` bytes is unescaped where it lies, each attribute
///   value in it cut as the server keeps it (`ProcessingRules.kept`, byte for byte), and handed
///   back apart; the entry keeps `""` in its place;
/// - any other string past `longString` bytes keeps its first `keptPrefix` bytes and says how
///   long it was (no judgement reads such a string whole: it is a URL, a header or an answer).
///
/// Whitespace between tokens goes too. Whatever the entry is not (bad escapes, a lone
/// surrogate, invalid UTF-8) makes `shrink` return nil: such an entry cannot be read, as with
/// `JSONSerialization`.
struct HAREntryShrinker {
  static let bodyInPlace = 64 << 10
  static let longString = 1 << 20
  static let keptPrefix = 64 << 10
  /// An attribute value shorter than this (escaped) is left to `ProcessingRules.kept`.
  static let valueInPlace = 8 << 10

  /// The shrunk entry's length, from the start of `bytes`, and the request body when it was
  /// taken out of the entry.
  static func shrink(_ bytes: UnsafeMutableRawBufferPointer) -> (length: Int, body: [UInt8]?)? {
    var shrinker = HAREntryShrinker(bytes: bytes, read: 0, write: 0, end: bytes.count)
    guard shrinker.value() else { return nil }
    return (shrinker.write, shrinker.body)
  }

  private let bytes: UnsafeMutableRawBufferPointer
  private var read: Int
  private var write: Int
  private let end: Int
  private var body: [UInt8]?
  /// Inside a request body: only attribute values are cut there.
  private var inBody = false
  /// The keys (`*` for an array's element) from the walk's start to the value it is at: one
  /// stack, pushed and popped, never a copy per item (#52). Compared by bytes, unescaped: a
  /// key written with escapes is not cut here, and is read whole as it came.
  private var path: [ExactKey] = []
  private static let element = ExactKey("*")
  private static let bodyPath = ["request", "postData", "text"].map(ExactKey.init)
  private static let attributes = ExactKey("attributes")
  private static let value = ExactKey("value")

  private init(bytes: UnsafeMutableRawBufferPointer, read: Int, write: Int, end: Int) {
    self.bytes = bytes
    self.read = read
    self.write = write
    self.end = end
  }

  /// Deeper than this a body is not walked: what is left is kept as it came (the server's
  /// decoder refuses such a body anyway), and the walk costs no stack.
  static let deepest = 512

  private mutating func value() -> Bool {
    guard path.count < Self.deepest else { return false }
    skipSpace()
    guard read < end else { return false }
    switch bytes[read] {
    case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true)
    case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false)
    case UInt8(ascii: "\""): return string()
    default:
      while read < end, !Self.endsScalar(bytes[read]) { copyByte() }
      return true
    }
  }

  private mutating func container(close: UInt8, keyed: Bool) -> Bool {
    copyByte()
    skipSpace()
    if read < end, bytes[read] == close {
      copyByte()
      return true
    }
    while true {
      var step = Self.element
      if keyed {
        skipSpace()
        guard read < end, bytes[read] == UInt8(ascii: "\""), let key = key() else { return false }
        step = ExactKey(key)
        skipSpace()
        guard read < end, bytes[read] == UInt8(ascii: ":") else { return false }
        copyByte()
      }
      path.append(step)
      let walked = value()
      path.removeLast()
      guard walked else { return false }
      skipSpace()
      guard read < end else { return false }
      if bytes[read] == close {
        copyByte()
        return true
      }
      guard bytes[read] == UInt8(ascii: ",") else { return false }
      copyByte()
    }
  }

  /// A key, copied; its text when it is short enough to name a field.
  private mutating func key() -> String? {
    guard let close = Self.literalEnd(bytes, from: read, end: end) else { return nil }
    let text =
      close - read < 64
      ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[read + 1..<close]), as: UTF8.self)
      : ""
    move(count: close + 1 - read)
    return text
  }

  private mutating func string() -> Bool {
    guard let close = Self.literalEnd(bytes, from: read, end: end) else { return false }
    let length = close + 1 - read
    if !inBody, path == Self.bodyPath, length > Self.bodyInPlace {
      return takeBody(close: close)
    }
    if inBody, path.count == 3, path[0] == Self.attributes, path[2] == Self.value,
      length > Self.valueInPlace
    {
      return cutValue(close: close)
    }
    if !inBody, length > Self.longString { return cutLong(close: close) }
    guard Self.validUTF8(bytes, read..<close) else { return false }
    move(count: length)
    return true
  }

  /// Unescapes the body where it lies, cuts its attribute values there, and takes it out.
  private mutating func takeBody(close: Int) -> Bool {
    let start = write
    var out = start
    guard
      Self.unescape(
        bytes, read + 1..<close,
        emit: { byte in
          bytes[out] = byte
          out += 1
        }), Self.validUTF8(bytes, start..<out)
    else { return false }
    read = close + 1
    var inner = HAREntryShrinker(bytes: bytes, read: start, write: start, end: out)
    inner.inBody = true
    if inner.peek() == UInt8(ascii: "{"), inner.value() {
      inner.skipSpace()
    }
    // The walk only drops space and cuts values: what it wrote and what it left unread are
    // the body, whether or not the body was whole JSON.
    let taken =
      Array(UnsafeRawBufferPointer(rebasing: bytes[start..<inner.write]))
      + Array(UnsafeRawBufferPointer(rebasing: bytes[inner.read..<out]))
    body = taken
    write = start
    put(UInt8(ascii: "\""))
    put(UInt8(ascii: "\""))
    return true
  }

  /// An attribute value as `ProcessingRules.kept` keeps it, computed from the escaped text.
  private mutating func cutValue(close: Int) -> Bool {
    var prefix: [UInt8] = []
    var count = 0
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, as ProcessingRules.kept
    // A value the body's JSON cannot hold (a lone surrogate) stays as it came: the body is
    // then refused as it would have been whole.
    guard
      Self.unescape(
        bytes, read + 1..<close,
        emit: { byte in
          if count < ProcessingRules.keptValueBytes { prefix.append(byte) }
          count += 1
          hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        })
    else {
      move(count: close + 1 - read)
      return true
    }
    let original = String(decoding: prefix, as: UTF8.self)
    guard count > ProcessingRules.keptValueBytes else {
      move(count: close + 1 - read)
      return true
    }
    let kept =
      original
      + "… (\(count) bytes; the first \(ProcessingRules.keptValueBytes) kept; \(String(hash, radix: 16)))"
    let escaped = Self.escaped(kept)
    guard escaped.count <= close + 1 - read else {
      move(count: close + 1 - read)
      return true
    }
    read = close + 1
    for byte in escaped { put(byte) }
    return true
  }

  /// A long string's first `keptPrefix` bytes as they are written, then how long it was.
  private mutating func cutLong(close: Int) -> Bool {
    guard Self.validUTF8(bytes, read..<close) else { return false }
    var cut = read + 1
    while cut < close, cut - read < Self.keptPrefix {
      cut += Self.unitLength(bytes, at: cut, before: close)
    }
    while cut < close, bytes[cut] & 0xC0 == 0x80 { cut += 1 }
    let length = close + 1 - read
    move(count: min(cut, close) - read)
    read = close + 1
    for byte in "… (\(length) bytes; cut by the judge)\"".utf8 { put(byte) }
    return true
  }

  private func peek() -> UInt8? {
    var index = read
    while index < end, Self.isSpace(bytes[index]) { index += 1 }
    return index < end ? bytes[index] : nil
  }

  /// Space between tokens goes from the entry; inside a body it is kept, so a body that is
  /// not JSON stays exactly as wrong as it came (`1 2` never becomes `12`).
  private mutating func skipSpace() {
    while read < end, Self.isSpace(bytes[read]) {
      if inBody { copyByte() } else { read += 1 }
    }
  }

  private mutating func copyByte() {
    bytes[write] = bytes[read]
    write += 1
    read += 1
  }

  private mutating func put(_ byte: UInt8) {
    bytes[write] = byte
    write += 1
  }

  private mutating func move(count: Int) {
    if write != read, let base = bytes.baseAddress {
      memmove(base + write, base + read, count)
    }
    write += count
    read += count
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func endsScalar(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")
      || byte == UInt8(ascii: "]")
  }
}
