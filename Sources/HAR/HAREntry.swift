import EngagementCore
import Foundation
import RegistrationCore

/// One HAR entry as the judge needs it, read tolerantly: the exporters differ in what they
/// leave out (sizes of -1, no `postData`, `_` fields of their own), and none of that matters.
enum HAREntry {
  /// The entry as a JSON object, or nil when it is none.
  static func object(_ bytes: UnsafeRawBufferPointer) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
  }

  static func startTime(_ entry: [String: Any]) -> Double? {
    (entry["startedDateTime"] as? String).flatMap(HARTime.parse)
  }

  /// The method and URL, enough to tell whether the SDK made the request.
  static func route(method: String, url: String) -> SDKRoutes.Route? {
    let exchange = CapturedExchange(startedAt: .zero, method: method, url: url, status: nil)
    return SDKRoutes.route(method: exchange.method, path: exchange.path, query: exchange.query)
  }

  /// `requestText` stands for `request.postData.text` when `HAREntryShrinker` took it out.
  static func exchange(_ entry: [String: Any], startedAt: Double, requestText: [UInt8]? = nil)
    -> CapturedExchange
  {
    let request = entry["request"] as? [String: Any] ?? [:]
    let response = entry["response"] as? [String: Any] ?? [:]
    let postData = request["postData"] as? [String: Any]
    let content = response["content"] as? [String: Any]
    let status = integer(response["status"]).flatMap { $0 > 0 ? $0 : nil }
    let error =
      entry["_error"] as? String ?? (response["_error"] as? String)
      ?? (status == nil ? "no answer" : nil)
    return CapturedExchange(
      startedAt: Instant(startedAt), duration: max(0, number(entry["time"]) ?? 0) / 1000,
      method: request["method"] as? String ?? "", url: request["url"] as? String ?? "",
      requestHeaders: headers(request["headers"]),
      requestBody: body(postData, text: requestText),
      status: status, responseHeaders: headers(response["headers"]), responseBody: body(content),
      error: error)
  }

  static func headers(_ value: Any?) -> [HeaderField] {
    (value as? [[String: Any]] ?? []).compactMap { field in
      guard let name = field["name"] as? String else { return nil }
      return HeaderField(name, field["value"].map { $0 as? String ?? "\($0)" } ?? "")
    }
  }

  /// `text`, decoded when its `encoding` is base64; exporters write a gzip'd answer's text
  /// already inflated.
  static func body(_ value: [String: Any]?, text taken: [UInt8]? = nil) -> [UInt8] {
    guard let text = taken ?? (value?["text"] as? String).map({ Array($0.utf8) }) else {
      return []
    }
    if (value?["encoding"] as? String)?.lowercased() == "base64" {
      return Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters).map(Array.init)
        ?? []
    }
    return text
  }

  static func integer(_ value: Any?) -> Int? {
    number(value).flatMap { $0.isFinite && abs($0) < 1e9 ? Int($0) : nil }
  }

  static func number(_ value: Any?) -> Double? {
    switch value {
    case let number as NSNumber: number.doubleValue
    case let text as String: Double(text)
    default: nil
    }
  }
}
