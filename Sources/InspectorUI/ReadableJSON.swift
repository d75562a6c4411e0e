import Foundation
import RegistrationCore

/// A registration body as the Payload pane shows it: keys sorted, one per line, two spaces a
/// level, `"key" : value` (the layout of JSONSerialization's pretty print, whose key sort went
/// through ICU's collation tables: megabytes mapped for one pane). Anything that is not JSON
/// is shown as its lines.
enum ReadableJSON {
  static func lines(_ bytes: [UInt8]) -> [String] {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
      return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    var lines: [String] = []
    value.write(into: &lines, head: "", indent: "", tail: "")
    return lines
  }
}

extension JSONValue {
  /// Appends this value's lines: `head` before its first, `tail` after its last (a comma).
  func write(into lines: inout [String], head: String, indent: String, tail: String) {
    switch self {
    case .array(let elements):
      lines.append(head + "[")
      for (index, element) in elements.enumerated() {
        element.write(
          into: &lines, head: indent + "  ", indent: indent + "  ",
          tail: index < elements.count - 1 ? "," : "")
      }
      lines.append(indent + "]" + tail)
    case .object(let members):
      lines.append(head + "{")
      let keys = members.keys.sorted(by: JSONKeyOrder.precedes)
      for (index, key) in keys.enumerated() {
        members[key]?.write(
          into: &lines, head: indent + "  " + Self.quoted(key) + " : ", indent: indent + "  ",
          tail: index < keys.count - 1 ? "," : "")
      }
      lines.append(indent + "}" + tail)
    default:
      lines.append(head + scalarText + tail)
    }
  }

  private var scalarText: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .integer(let value): String(value)
    case .number(let value):
      value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    case .string(let value): Self.quoted(value)
    case .array, .object: ""
    }
  }

  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{8}": result += "\\b"
      case "\u{C}": result += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

/// Key order as JSONSerialization's sorted keys give it for the keys bodies hold: case left
/// aside, runs of digits by their value, punctuation before digits before letters.
enum JSONKeyOrder {
  static func precedes(_ a: String, _ b: String) -> Bool {
    let (left, right) = (Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
    var (i, j) = (0, 0)
    while i < left.count && j < right.count {
      if isDigit(left[i]) && isDigit(right[j]) {
        let (first, nextI) = digitRun(left, from: i)
        let (second, nextJ) = digitRun(right, from: j)
        if first != second {
          return first.count != second.count ? first.count < second.count : first < second
        }
        (i, j) = (nextI, nextJ)
        continue
      }
      if left[i] != right[j] { return rank(left[i]) < rank(right[j]) }
      (i, j) = (i + 1, j + 1)
    }
    if left.count - i != right.count - j { return left.count - i < right.count - j }
    return a < b
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  /// The digit run's value as text without leading zeros, and where it ends.
  private static func digitRun(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int) {
    var end = start
    while end < scalars.count && isDigit(scalars[end]) { end += 1 }
    var digits = String(String.UnicodeScalarView(scalars[start..<end]))
    while digits.count > 1 && digits.first == "0" { digits.removeFirst() }
    return (digits, end)
  }

  /// Punctuation and symbols, then digits, then letters (then anything else by code point).
  private static func rank(_ scalar: Unicode.Scalar) -> (Int, UInt32) {
    if isDigit(scalar) { return (1, scalar.value) }
    if scalar.properties.isAlphabetic { return (2, scalar.value) }
    if scalar.value < 0x80 { return (0, scalar.value) }
    return (3, scalar.value)
  }
}
