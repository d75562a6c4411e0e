/// Any JSON value, as decoded: for bodies shown rather than judged (the Payload pane, a
/// Mobile App Messaging call's fields).
public indirect enum JSONValue: Decodable, Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Compact JSON, keys sorted: the value as one line.
  public var compactText: String {
    var bytes: [UInt8] = []
    appendCompact(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func appendCompact(to bytes: inout [UInt8]) {
    switch self {
    case .null: bytes += "null".utf8
    case .bool(let value): bytes += (value ? "true" : "false").utf8
    case .integer(let value): bytes += String(value).utf8
    case .number(let value): bytes += (value.isFinite ? "\(value)" : "null").utf8
    case .string(let value): JSONText.appendQuoted(value, to: &bytes)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        element.appendCompact(to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        members[key]?.appendCompact(to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }
}
