import EngagementCore
import Foundation
import HTTPTypes
import NIOHTTP1
import RegistrationCore
import Synchronization

/// The fields the fast path reads, found in one pass over the head NIO read, as the full path
/// would read them from `HTTPFields`: each value made legal as `HTTPField` makes it, a
/// repeated field's values joined with ", ", the first `Host` taken as the authority and left
/// out of the fields (`fields`, what a capture shows), a field whose name is not a token left
/// out too.
struct HeadFields {
  var contentLength: String?
  var authorization: String?
  var userAgent: String?
  var sdkVersion: String?
  var subscriberToken: String?
  /// `Transfer-Encoding` or `Expect`: a body framed or awaited otherwise.
  var framedOtherwise = false
  /// `Connection: close`: the connection ends with this answer.
  var closes = false
  /// The first `Host`, as the request's authority.
  var authority: String?
  /// A second `Host`: the full path refuses the request (RFC 9112 3.2).
  var hostRepeated = false
  /// Every field but that `Host`, in order: what the capture shows as the request's headers.
  var fields: [HeaderField] = []

  init(_ headers: HTTPHeaders) {
    func add(_ value: String, to field: inout String?) {
      field = field.map { $0 + ", " + value } ?? value
    }
    fields.reserveCapacity(headers.count)
    for (name, raw) in headers {
      guard Self.isToken(name) else { continue }
      let value = Self.legal(raw)
      if CapturedExchange.sameName(name, "host") {
        guard authority == nil else {
          hostRepeated = true
          fields.append(HeaderField(name, value))
          continue
        }
        authority = value
        continue
      }
      fields.append(HeaderField(name, value))
      switch name.utf8.count {
      case 6 where CapturedExchange.sameName(name, "expect"): framedOtherwise = true
      case 10 where CapturedExchange.sameName(name, "user-agent"): add(value, to: &userAgent)
      case 10 where CapturedExchange.sameName(name, "connection"):
        closes =
          closes
          || value.lowercased().split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == "close"
          }
      case 13 where CapturedExchange.sameName(name, "authorization"):
        add(value, to: &authorization)
      case 13 where CapturedExchange.sameName(name, "x-sdk-version"): add(value, to: &sdkVersion)
      case 14 where CapturedExchange.sameName(name, "content-length"):
        add(value, to: &contentLength)
      case 17 where CapturedExchange.sameName(name, "transfer-encoding"): framedOtherwise = true
      case 18 where CapturedExchange.sameName(name, "x-subscriber-token"):
        add(value, to: &subscriberToken)
      default: break
      }
    }
  }

  /// A field name `HTTPField.Name` takes: one or more token characters (RFC 9110).
  static func isToken(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { bytes in
      !bytes.isEmpty
        && bytes.allSatisfy { byte in
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "|"),
            UInt8(ascii: "~"):
            true
          default: false
          }
        }
    }
  }

  /// The value as `HTTPField` keeps it: most values are legal as they came (visible bytes,
  /// spaces and tabs inside); any other is made legal by `HTTPField` itself.
  static func legal(_ value: String) -> String {
    var value = value
    let isLegal = value.withUTF8 { bytes in
      guard let first = bytes.first, let last = bytes.last else { return true }
      if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return false }
      return bytes.allSatisfy { $0 >= 0x20 ? $0 != 0x7F : $0 == 0x09 }
    }
    return isLegal ? value : HTTPField(name: .accept, value: value).value
  }
}

/// The `Date` of an answer, worked out once a second.
enum HTTPDateCache {
  private static let cached = Mutex<(second: Int64, text: String)>((0, ""))

  static var now: String {
    let second = Int64(Date().timeIntervalSince1970)
    if let text = cached.withLock({ $0.second == second ? $0.text : nil }) { return text }
    let text = DateText.httpDate(secondsSince1970: second)
    cached.withLock { $0 = (second, text) }
    return text
  }
}
