import Foundation

/// Foundation's JSON errors say "around character 16"; people read files by line and column.
public enum JSONErrorLocation {
  public static func describe(_ error: any Error, in data: Data) -> String {
    let detail =
      (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      ?? error.localizedDescription
    guard let range = detail.range(of: "around character "),
      let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
    else { return detail }
    let (line, column) = lineAndColumn(ofByte: offset, in: data)
    let message = detail[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
    return "\(message) at line \(line), column \(column)"
  }

  static func lineAndColumn(ofByte offset: Int, in data: Data) -> (Int, Int) {
    var line = 1
    var column = 1
    for byte in data.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return (line, column)
  }
}
