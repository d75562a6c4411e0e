import Foundation
import RegistrationCore

/// One line of `regctl mcp`'s input read strictly as JSON (RFC 8259), each byte looked at once
/// and nothing kept but the open brackets, before anything decodes it. Foundation's decoder is
/// more lenient than JSON (a trailing comma, `[1,]`, passes) and lazier (a number or a string
/// no key asks for is never read), and the SDK's server, which reads every value, answers what
/// it cannot read with a made-up id: so what is not JSON, or not JSON the server can read (a
/// number past a Double, `1e400`; bytes that are not UTF-8; a lone surrogate, `"\ud800"`), is
/// a parse error here, with a null id. A batch's messages are counted on the way.
struct MCPJSONCheck {
  /// Deeper than this is refused: Foundation's decoder stops at 512, and the SDK re-encodes
  /// what it reads, deeper still.
  static let depthLimit = 128

  enum Outcome: Equatable {
    /// JSON; `batchCount` is the number of elements when the line is an array.
    case valid(batchCount: Int?)
    /// Not JSON the server can read: why, and at which byte (counted from 1).
    case invalid(String)
  }

  static func check(_ line: Data) -> Outcome {
    line.withUnsafeBytes { bytes in
      var reader = MCPJSONCheck(bytes)
      return reader.run()
    }
  }

  private let bytes: UnsafeRawBufferPointer
  private var at = 0
  /// The open containers, innermost last: true for an object.
  private var open: [Bool] = []
  private var batchCount: Int?

  private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private struct Refusal: Error {
    var reason: String
  }

  private enum Expect {
    case value, valueOrClose, key, keyOrClose, colon, commaOrClose
  }

  private mutating func run() -> Outcome {
    do {
      // A UTF-8 byte order mark is let through, as Foundation's decoder lets it.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
      try readAll()
      return .valid(batchCount: batchCount)
    } catch {
      return .invalid(error.reason)
    }
  }

  private mutating func readAll() throws(Refusal) {
    var expect = Expect.value
    while true {
      skipSpace()
      guard at < bytes.count else { break }
      let byte = bytes[at]
      if open.isEmpty, expect == .commaOrClose { throw refusal("text after the JSON value") }
      switch expect {
      case .value, .valueOrClose:
        if byte == UInt8(ascii: "]"), expect == .valueOrClose {
          at += 1
          open.removeLast()
        } else {
          if open.count == 1, open[0] == false { batchCount = (batchCount ?? 0) + 1 }
          if try startValue(byte) {
            expect = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
            continue
          }
        }
      case .key, .keyOrClose:
        if byte == UInt8(ascii: "}"), expect == .keyOrClose {
          at += 1
          open.removeLast()
        } else if byte == UInt8(ascii: "\"") {
          try readString()
          expect = .colon
          continue
        } else {
          throw refusal(afterComma ? "a comma before \"}\"" : "a key expected")
        }
      case .colon:
        guard byte == UInt8(ascii: ":") else { throw refusal("\":\" expected after a key") }
        at += 1
        expect = .value
        continue
      case .commaOrClose:
        let inObject = open.last == true
        if byte == UInt8(ascii: ",") {
          at += 1
          expect = inObject ? .key : .value
          continue
        }
        guard byte == UInt8(ascii: inObject ? "}" : "]") else {
          throw refusal(inObject ? "\",\" or \"}\" expected" : "\",\" or \"]\" expected")
        }
        at += 1
        open.removeLast()
      }
      // A value ended: next, a comma or its container's end (or, at the top, the line's end).
      expect = .commaOrClose
    }
    guard open.isEmpty, expect == .commaOrClose else {
      throw refusal("the line ends inside the JSON value")
    }
  }

  /// Reads a scalar whole, or opens a container (true: the caller reads its inside).
  private mutating func startValue(_ byte: UInt8) throws(Refusal) -> Bool {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard open.count < Self.depthLimit else {
        throw refusal("nested deeper than \(Self.depthLimit) levels")
      }
      open.append(byte == UInt8(ascii: "{"))
      at += 1
      return true
    case UInt8(ascii: "\""): try readString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try readNumber()
    case UInt8(ascii: "t"): try readWord("true")
    case UInt8(ascii: "f"): try readWord("false")
    case UInt8(ascii: "n"): try readWord("null")
    default:
      throw refusal(
        afterComma ? "a comma before \"\(Character(Unicode.Scalar(byte)))\"" : "a value expected")
    }
    return false
  }

  /// True when the byte read now closes a container right after a comma: `[1,]`, `{"a":1,}`.
  private var afterComma: Bool {
    guard at < bytes.count, bytes[at] == UInt8(ascii: "]") || bytes[at] == UInt8(ascii: "}")
    else { return false }
    var before = at - 1
    while before >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[before]) { before -= 1 }
    return before >= 0 && bytes[before] == UInt8(ascii: ",")
  }

  private mutating func skipSpace() {
    while at < bytes.count {
      switch bytes[at] {
      case 0x20, 0x09, 0x0A, 0x0D: at += 1
      default: return
      }
    }
  }

  private mutating func readWord(_ word: StaticString) throws(Refusal) {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] })
    else { throw refusal("not a JSON value") }
    at += count
  }

  // MARK: Numbers

  private mutating func readNumber() throws(Refusal) {
    let start = at
    if bytes[at] == UInt8(ascii: "-") { at += 1 }
    guard at < bytes.count, isDigit(bytes[at]) else { throw refusal("a digit expected") }
    if bytes[at] == UInt8(ascii: "0") {
      at += 1
      if at < bytes.count, isDigit(bytes[at]) { throw refusal("a number with a leading zero") }
    } else {
      skipDigits()
    }
    var plain = true
    if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
      at += 1
      guard at < bytes.count, isDigit(bytes[at]) else { throw refusal("a digit expected") }
      skipDigits()
    }
    if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
      plain = false
      at += 1
      if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
        at += 1
      }
      guard at < bytes.count, isDigit(bytes[at]) else { throw refusal("a digit expected") }
      skipDigits()
    }
    // Short and without an exponent, a number is within a Double's range: only the others
    // are read, once each.
    guard !plain || at - start > 300 else { return }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      at = start
      throw refusal("a number past the range of a Double")
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func skipDigits() {
    while at < bytes.count, isDigit(bytes[at]) { at += 1 }
  }

  // MARK: Strings

  /// From the opening quote past the closing one: no raw control character, every escape
  /// one of JSON's, a surrogate only in a pair, the bytes UTF-8.
  private mutating func readString() throws(Refusal) {
    at += 1
    while at < bytes.count {
      let byte = bytes[at]
      switch byte {
      case UInt8(ascii: "\""):
        at += 1
        return
      case UInt8(ascii: "\\"): try readEscape()
      case 0..<0x20: throw refusal("a control character inside a string")
      case 0..<0x80: at += 1
      default: try readUTF8()
      }
    }
    throw refusal("the line ends inside a string")
  }

  private mutating func readEscape() throws(Refusal) {
    guard at + 1 < bytes.count else { throw refusal("the line ends inside a string") }
    switch bytes[at + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      at += 2
    case UInt8(ascii: "u"):
      let unit = try hexUnit(at + 2)
      switch unit {
      case 0xD800...0xDBFF:
        guard at + 7 < bytes.count, bytes[at + 6] == UInt8(ascii: "\\"),
          bytes[at + 7] == UInt8(ascii: "u"),
          (0xDC00...0xDFFF).contains(try hexUnit(at + 8))
        else { throw refusal("a high surrogate without its low one") }
        at += 12
      case 0xDC00...0xDFFF: throw refusal("a low surrogate without its high one")
      default: at += 6
      }
    default: throw refusal("not an escape JSON has")
    }
  }

  /// The one reading of four hex digits RegScope has (`JSONEscapes.hex4`).
  private func hexUnit(_ start: Int) throws(Refusal) -> UInt16 {
    guard let value = JSONEscapes.hex4(bytes.assumingMemoryBound(to: UInt8.self), at: start)
    else { throw refusal("\\u needs four hex digits") }
    return UInt16(value)
  }

  /// One UTF-8 sequence of two to four bytes, as RFC 3629 allows it (no overlong form, no
  /// surrogate, nothing past U+10FFFF).
  private mutating func readUTF8() throws(Refusal) {
    let lead = bytes[at]
    let (count, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0...0)
      }
    guard count > 0, at + count <= bytes.count, second.contains(bytes[at + 1]),
      (2..<count).allSatisfy({ (0x80...0xBF).contains(bytes[at + $0]) })
    else { throw refusal("bytes that are not UTF-8") }
    at += count
  }

  private func refusal(_ reason: String) -> Refusal {
    Refusal(reason: "\(reason) at byte \(at + 1)")
  }
}
