import RegistrationCore

/// A HAR entry written as compact JSON with its keys sorted, byte by byte: what
/// `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes, without its cost.
struct CompactJSON {
  private(set) var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1_024) }

  mutating func write(_ entry: HARDocument.Entry) {
    begin()
    key("cache")
    raw("{}")
    key("request")
    write(entry.request)
    key("response")
    write(entry.response)
    key("startedDateTime")
    string(entry.startedDateTime)
    key("time")
    number(entry.time)
    key("timings")
    begin()
    key("receive")
    number(entry.timings.receive)
    key("send")
    number(entry.timings.send)
    key("wait")
    number(entry.timings.wait)
    end()
    end()
  }

  private mutating func write(_ request: HARDocument.Request) {
    begin()
    key("bodySize")
    number(Double(request.bodySize))
    key("cookies")
    headers(request.cookies)
    key("headers")
    headers(request.headers)
    key("headersSize")
    number(Double(request.headersSize))
    key("httpVersion")
    string(request.httpVersion)
    key("method")
    string(request.method)
    if let postData = request.postData {
      key("postData")
      write(postData)
    }
    key("queryString")
    headers(request.queryString)
    key("url")
    string(request.url)
    end()
  }

  private mutating func write(_ response: HARDocument.Response) {
    begin()
    if let error = response._error {
      key("_error")
      string(error)
    }
    key("bodySize")
    number(Double(response.bodySize))
    key("content")
    write(response.content)
    key("cookies")
    headers(response.cookies)
    key("headers")
    headers(response.headers)
    key("headersSize")
    number(Double(response.headersSize))
    key("httpVersion")
    string(response.httpVersion)
    key("redirectURL")
    string(response.redirectURL)
    key("status")
    number(Double(response.status))
    key("statusText")
    string(response.statusText)
    end()
  }

  private mutating func write(_ content: HARDocument.Content) {
    begin()
    key("mimeType")
    string(content.mimeType)
    if let size = content.size {
      key("size")
      number(Double(size))
    }
    key("text")
    string(content.text)
    end()
  }

  private mutating func headers(_ headers: [HARDocument.Header]) {
    bytes.append(UInt8(ascii: "["))
    for (index, header) in headers.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      begin()
      key("name")
      string(header.name)
      key("value")
      string(header.value)
      end()
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// Whether each object open so far already has a member (a comma goes before the next).
  private var members: [Bool] = []

  private mutating func begin() {
    bytes.append(UInt8(ascii: "{"))
    members.append(false)
  }

  private mutating func end() {
    bytes.append(UInt8(ascii: "}"))
    members.removeLast()
  }

  /// A member's name: these are ASCII with nothing to escape, so written as they are.
  private mutating func key(_ name: StaticString) {
    if members.last == true { bytes.append(UInt8(ascii: ",")) }
    members[members.count - 1] = true
    bytes.append(UInt8(ascii: "\""))
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
  }

  private mutating func string(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

  private mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// Whole numbers as integers, as JSONEncoder writes them; others in Swift's shortest form.
  private mutating func number(_ value: Double) {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      bytes.append(contentsOf: String(Int64(value)).utf8)
    } else if value.isFinite {
      bytes.append(contentsOf: "\(value)".utf8)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }
}
