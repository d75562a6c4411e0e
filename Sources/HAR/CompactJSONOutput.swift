import EngagementCore
import RegistrationCore

/// Where `CompactJSON` writes a run of an entry: a pointer into room made for it, each write
/// checked against the room's end. One that does not fit writes nothing and leaves the run
/// short: the run is then written again, whole, into more room.
struct CompactJSONOutput {
  private var to: UnsafeMutablePointer<UInt8>
  private let end: UnsafeMutablePointer<UInt8>
  private var short = false

  init(_ base: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
    to = base
    self.end = end
  }

  /// The bytes written from `base`; nil when the room ran out.
  func length(from base: UnsafeMutablePointer<UInt8>) -> Int? { short ? nil : to - base }

  /// Room for `count` more bytes, or the run marked short.
  @inline(__always)
  private mutating func fits(_ count: Int) -> Bool {
    if !short, end - to >= count { return true }
    short = true
    return false
  }

  mutating func raw(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    guard fits(count) else { return }
    to.initialize(from: text.utf8Start, count: count)
    to += count
  }

  private mutating func plain(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      guard let source = utf8.baseAddress, fits(utf8.count) else { return }
      to.initialize(from: source, count: utf8.count)
      to += utf8.count
    }
  }

  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { quoted($0) }
  }

  private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard !short else { return }
    if let count = JSONText.writeQuoted(utf8, to: to, end: end) {
      to += count
    } else {
      short = true
    }
  }

  /// `{"name":NAME,"value":` before a header's value.
  mutating func header(_ field: HeaderField, first: Bool) {
    raw(first ? #"{"name":"# : #",{"name":"#)
    string(field.name)
    raw(#","value":"#)
  }

  mutating func query(_ exchange: CapturedExchange) {
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
  mutating func text(_ body: [UInt8]) {
    if body.allSatisfy({ $0 < 0x80 }) {
      body.withUnsafeBufferPointer { quoted($0) }
    } else {
      string(HARDocument.text(body))
    }
  }

  mutating func int(_ value: Int) {
    // The longest: a sign and nineteen digits.
    guard fits(20) else { return }
    if value < 0 {
      to.initialize(to: UInt8(ascii: "-"))
      to += 1
    }
    var magnitude = value.magnitude
    var digits = 0
    var rest = magnitude
    repeat {
      digits += 1
      rest /= 10
    } while rest > 0
    var at = to + digits
    repeat {
      at -= 1
      at.initialize(to: UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    to += digits
  }

  /// Whole numbers as integers, as JSONEncoder writes them; others in Swift's shortest form.
  mutating func number(_ value: Double) {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      int(Int(value))
    } else if value.isFinite {
      plain("\(value)")
    } else {
      raw("null")
    }
  }
}
