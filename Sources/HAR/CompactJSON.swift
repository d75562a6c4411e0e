import EngagementCore
import Foundation
import RegistrationCore

/// A capture's entry written as compact JSON with its keys sorted, straight from the exchange:
/// what `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes of
/// `HARDocument.entry`, without building the entry. It runs on every request of a receiver
/// with a capture, so the entry is written in a few runs, each through one pointer into room
/// made at the end of the buffer (`CompactJSONOutput`), not appended a piece at a time.
/// `CompactJSONTests` holds it to Foundation's.
struct CompactJSON {
  private(set) var bytes: [UInt8] = []

  /// Room for the whole entry at once (growing the buffer twice an entry showed in the
  /// profile): the fixed keys and headers, and room for each body escaped. Written into
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
    run { out in
      out.raw(#"{"cache":{},"request":{"bodySize":"#)
      out.int(exchange.requestBody.count)
      out.raw(#","cookies":[],"headers":"#)
    }
    headers(exchange.requestHeaders)
    run { out in
      out.raw(#","headersSize":-1,"httpVersion":"HTTP/1.1","method":"#)
      out.string(exchange.method)
      if !exchange.requestBody.isEmpty {
        out.raw(#","postData":{"mimeType":"#)
        out.string(
          CapturedExchange.value(of: "Content-Type", in: exchange.requestHeaders)
            ?? "application/json")
        out.raw(#","text":"#)
        out.text(exchange.requestBody)
        out.raw("}")
      }
      out.raw(#","queryString":"#)
      out.query(exchange)
      out.raw(#","url":"#)
      out.string(exchange.url)
      out.raw(#"},"response":{"#)
      if let error = exchange.error {
        out.raw(#""_error":"#)
        out.string(error)
        out.raw(",")
      }
      out.raw(#""bodySize":"#)
      out.int(exchange.status == nil ? -1 : exchange.responseBody.count)
      out.raw(#","content":{"mimeType":"#)
      out.string(
        CapturedExchange.value(of: "Content-Type", in: exchange.responseHeaders)
          ?? "application/json")
      out.raw(#","size":"#)
      out.int(exchange.responseBody.count)
      out.raw(#","text":"#)
      out.text(exchange.responseBody)
      out.raw(#"},"cookies":[],"headers":"#)
    }
    headers(exchange.responseHeaders)
    run { out in
      out.raw(#","headersSize":-1,"httpVersion":"HTTP/1.1","redirectURL":"","status":"#)
      out.int(exchange.status ?? 0)
      out.raw(#","statusText":""},"startedDateTime":""#)
    }
    DateText.appendUTCStamp(Date(timeIntervalSince1970: exchange.startedAt.seconds), to: &bytes)
    run { out in
      out.raw(#"","time":"#)
      out.number(milliseconds)
      out.raw(#","timings":{"receive":0,"send":0,"wait":"#)
      out.number(milliseconds)
      out.raw("}}")
    }
  }

  /// The headers, tokens masked (`HARDocument.masked`): a run up to each whose value is
  /// masked whole, which is written straight in between runs (a fleet's every answer hands
  /// out a new token; a plain value masked needs no escaping).
  private mutating func headers(_ fields: [HeaderField]) {
    var from = fields.startIndex
    while true {
      let until = fields[from...].firstIndex(where: Self.isFingerprinted) ?? fields.endIndex
      run { out in
        // After a masked value, its closing quote and brace.
        out.raw(from == fields.startIndex ? "[" : #""}"#)
        for index in from..<until {
          out.header(fields[index], first: index == fields.startIndex)
          out.string(HARDocument.maskedValue(fields[index]))
          out.raw("}")
        }
        if until == fields.endIndex {
          out.raw("]")
        } else {
          out.header(fields[until], first: until == fields.startIndex)
          out.raw("\"")
        }
      }
      guard until < fields.endIndex else { return }
      TokenText.appendFingerprinted(fields[until].value, to: &bytes)
      from = until + 1
    }
  }

  private static func isFingerprinted(_ field: HeaderField) -> Bool {
    HARDocument.isWholeSecret(field.name) && isPlain(field.value)
  }

  /// Printable ASCII but for the quote and the backslash: nothing JSON escapes.
  static func isPlain(_ value: String) -> Bool {
    value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
  }

  /// What `write` writes through one pointer, into the room left in the buffer; written
  /// again into twice the room when that ran out (a body full of escapes).
  private mutating func run(_ write: (inout CompactJSONOutput) -> Void) {
    var room = max(bytes.capacity - bytes.count, 256)
    while true {
      var written = false
      bytes.append(addingCapacity: room) { span in
        span.withUnsafeMutableBufferPointer { buffer, count in
          guard let base = buffer.baseAddress else { return }
          var out = CompactJSONOutput(base, end: base + buffer.count)
          write(&out)
          if let length = out.length(from: base) {
            count = length
            written = true
          }
        }
      }
      if written { return }
      room *= 2
    }
  }
}
