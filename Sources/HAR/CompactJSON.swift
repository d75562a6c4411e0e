import EngagementCore
import Foundation
import RegistrationCore

/// A capture's entry written as compact JSON with its keys sorted, straight from the exchange:
/// what `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes of
/// `HARDocument.entry`, without building the entry. It runs on every request of a receiver
/// with a capture, so the runs of keys between values are written as one literal each, and a
/// body is escaped in one pass (`JSONText`). `CompactJSONTests` holds it to Foundation's.
struct CompactJSON {
  private(set) var bytes: [UInt8] = []

  /// Room for the whole entry at once (growing the buffer twice an entry showed in the
  /// profile): the fixed keys and headers, and room for each body escaped in place, which
  /// takes twice the body while it is written (`JSONText.appendEscaped`). Written into
  /// `buffer` (emptied first, its room kept) when one is given: an entry's room, some 3 KB
  /// under a fleet, is past what malloc keeps for a thread to reuse, and making one a request
  /// swept malloc's lists of small free blocks each time (`malloc_consolidate`).
  init(reusing buffer: consuming [UInt8] = [], reservingFor exchange: CapturedExchange) {
    bytes = buffer
    bytes.removeAll(keepingCapacity: true)
    let room = Self.room(for: exchange)
    // A buffer in use again gets room to spare: the next entry, a few bytes longer, must fit.
    if bytes.capacity < room {
      bytes.reserveCapacity(bytes.capacity == 0 ? room : room + room / 2)
    }
  }

  private static func room(for exchange: CapturedExchange) -> Int {
    let bodies = exchange.requestBody.count + exchange.responseBody.count
    var headers = 0
    // `{"name":"","value":""}` and a comma around each, and room for a few escapes.
    for field in exchange.requestHeaders {
      headers += field.name.utf8.count + field.value.utf8.count + 32
    }
    for field in exchange.responseHeaders {
      headers += field.name.utf8.count + field.value.utf8.count + 32
    }
    return 1_024 + 2 * bodies + headers + 2 * exchange.url.utf8.count
  }

  mutating func write(_ exchange: CapturedExchange) {
    let milliseconds = (exchange.duration * 1000).rounded()
    raw(#"{"cache":{},"request":{"bodySize":"#)
    int(exchange.requestBody.count)
    raw(#","cookies":[],"headers":"#)
    headers(exchange.requestHeaders)
    raw(#","headersSize":-1,"httpVersion":"HTTP/1.1","method":"#)
    string(exchange.method)
    if !exchange.requestBody.isEmpty {
      raw(#","postData":{"mimeType":"#)
      string(
        CapturedExchange.value(of: "Content-Type", in: exchange.requestHeaders)
          ?? "application/json")
      raw(#","text":"#)
      text(exchange.requestBody)
      raw("}")
    }
    raw(#","queryString":"#)
    query(exchange)
    raw(#","url":"#)
    string(exchange.url)
    raw(#"},"response":{"#)
    if let error = exchange.error {
      raw(#""_error":"#)
      string(error)
      raw(",")
    }
    raw(#""bodySize":"#)
    int(exchange.status == nil ? -1 : exchange.responseBody.count)
    raw(#","content":{"mimeType":"#)
    string(
      CapturedExchange.value(of: "Content-Type", in: exchange.responseHeaders)
        ?? "application/json")
    raw(#","size":"#)
    int(exchange.responseBody.count)
    raw(#","text":"#)
    text(exchange.responseBody)
    raw(#"},"cookies":[],"headers":"#)
    headers(exchange.responseHeaders)
    raw(#","headersSize":-1,"httpVersion":"HTTP/1.1","redirectURL":"","status":"#)
    int(exchange.status ?? 0)
    raw(#","statusText":""},"startedDateTime":""#)
    DateText.appendUTCStamp(Date(timeIntervalSince1970: exchange.startedAt.seconds), to: &bytes)
    raw(#"","time":"#)
    number(milliseconds)
    raw(#","timings":{"receive":0,"send":0,"wait":"#)
    number(milliseconds)
    raw("}}")
  }

  /// The headers, tokens masked (`HARDocument.masked`).
  private mutating func headers(_ fields: [HeaderField]) {
    raw("[")
    for (index, field) in fields.enumerated() {
      raw(index == 0 ? #"{"name":"# : #",{"name":"#)
      string(field.name)
      raw(#","value":"#)
      if HARDocument.isWholeSecret(field.name), Self.isPlain(field.value) {
        // Written straight in (a fleet's every answer hands out a new token): a plain value
        // masked needs no escaping.
        bytes.append(UInt8(ascii: "\""))
        TokenText.appendFingerprinted(field.value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
      } else {
        string(HARDocument.maskedValue(field))
      }
      raw("}")
    }
    raw("]")
  }

  /// Printable ASCII but for the quote and the backslash: nothing JSON escapes.
  static func isPlain(_ value: String) -> Bool {
    value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
  }

  private mutating func query(_ exchange: CapturedExchange) {
    var url = exchange.url
    // Through the bytes in place: `String.UTF8View`'s walk cost more than the rest of it.
    guard url.withUTF8({ $0.contains(UInt8(ascii: "?")) }) else {
      raw("[]")
      return
    }
    raw("[")
    for (index, pair) in exchange.query.sorted(by: { $0.key < $1.key }).enumerated() {
      raw(index == 0 ? #"{"name":"# : #",{"name":"#)
      string(pair.key)
      raw(#","value":"#)
      string(pair.value)
      raw("}")
    }
    raw("]")
  }

  /// A body as text: valid UTF-8 as it is, anything else repaired as `String(decoding:)` does.
  private mutating func text(_ body: [UInt8]) {
    if body.allSatisfy({ $0 < 0x80 }) {
      bytes.append(UInt8(ascii: "\""))
      body.withUnsafeBufferPointer { JSONText.appendEscaped(utf8: $0, to: &bytes) }
      bytes.append(UInt8(ascii: "\""))
    } else {
      string(HARDocument.text(body))
    }
  }

  private mutating func string(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

  private mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func int(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    guard magnitude < 10_000_000_000 else {
      bytes.append(contentsOf: String(value.magnitude).utf8)
      return
    }
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// Whole numbers as integers, as JSONEncoder writes them; others in Swift's shortest form.
  private mutating func number(_ value: Double) {
    if value.isFinite, value == value.rounded(), abs(value) < 1e9 {
      int(Int(value))
    } else if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      bytes.append(contentsOf: String(Int64(value)).utf8)
    } else if value.isFinite {
      bytes.append(contentsOf: "\(value)".utf8)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }
}
