import Foundation
import HTTPTypes
import RegistrationCore
import Synchronization

/// The fields the fast path reads, found in one pass: `HTTPFields`' subscript searches and
/// joins on every call, and seven of them showed in the profile. A repeated field reads as
/// the subscript reads it, its values joined with ", ".
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

  init(_ fields: HTTPFields) {
    func add(_ value: String, to field: inout String?) {
      field = field.map { $0 + ", " + value } ?? value
    }
    for field in fields {
      switch field.name {
      case .contentLength: add(field.value, to: &contentLength)
      case .authorization: add(field.value, to: &authorization)
      case .userAgent: add(field.value, to: &userAgent)
      case DeviceRoutes.sdkVersion: add(field.value, to: &sdkVersion)
      case DeviceRoutes.subscriberToken: add(field.value, to: &subscriberToken)
      case .transferEncoding, .expect: framedOtherwise = true
      case .connection:
        closes =
          closes
          || field.value.lowercased().split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == "close"
          }
      default: break
      }
    }
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
