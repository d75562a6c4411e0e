import Foundation
import RegistrationCore

/// One header of a request or an answer, as it was on the wire.
public struct HeaderField: Sendable, Hashable, Codable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// One request a device made and the answer it got: what a capture (HAR) holds, and what the
/// local server's front records for export.
public struct CapturedExchange: Sendable, Hashable {
  /// When the request started, in seconds since the epoch.
  public var startedAt: Instant
  /// Seconds from the request's start to the end of its answer.
  public var duration: Double
  public var method: String
  /// The whole URL, or the path alone when the host is not known.
  public var url: String
  public var requestHeaders: [HeaderField]
  public var requestBody: [UInt8]
  /// Nil when no answer came (a dropped connection, a hang the app gave up on).
  public var status: Int?
  public var responseHeaders: [HeaderField]
  public var responseBody: [UInt8]
  /// Why no answer came, when none did.
  public var error: String?

  public init(
    startedAt: Instant, duration: Double = 0, method: String, url: String,
    requestHeaders: [HeaderField] = [], requestBody: [UInt8] = [], status: Int?,
    responseHeaders: [HeaderField] = [], responseBody: [UInt8] = [], error: String? = nil
  ) {
    self.startedAt = startedAt
    self.duration = duration
    self.method = method
    self.url = url
    self.requestHeaders = requestHeaders
    self.requestBody = requestBody
    self.status = status
    self.responseHeaders = responseHeaders
    self.responseBody = responseBody
    self.error = error
  }

  /// A request header's value; names compare without regard to case, as HTTP's do.
  public func requestHeader(_ name: String) -> String? { Self.value(of: name, in: requestHeaders) }

  public func responseHeader(_ name: String) -> String? {
    Self.value(of: name, in: responseHeaders)
  }

  public static func value(of name: String, in fields: [HeaderField]) -> String? {
    fields.first { sameName($0.name, name) }?.value
  }

  /// Header names compared as HTTP does, ignoring ASCII case, without lowercasing copies
  /// (a capture looks up each exchange's Content-Type twice).
  public static func sameName(_ one: String, _ other: String) -> Bool {
    guard one.utf8.count == other.utf8.count else { return false }
    if one == other { return true }
    var (one, other) = (one, other)
    return one.withUTF8 { first in
      other.withUTF8 { second in
        for index in 0..<first.count where first[index] != second[index] {
          let folded = first[index] | 0x20
          guard folded == second[index] | 0x20, folded &- 0x61 < 26 else { return false }
        }
        return true
      }
    }
  }

  /// The URL's path, without its query.
  public var path: String {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") {
      rest = rest[scheme.upperBound...]
      rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
    }
    return String(rest.prefix { $0 != "?" && $0 != "#" })
  }

  /// The URL's query parameters (the first of each name), percent-decoded.
  public var query: [String: String] {
    guard let mark = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { return [:] }
    var found: [String: String] = [:]
    for pair in url[url.index(after: mark)...].prefix(while: { $0 != "#" }).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let value =
        parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? String(parts[1]) : ""
      if found[name] == nil { found[name] = value }
    }
    return found
  }

  /// What the judge reads of the request besides its body.
  public var facts: RequestFacts {
    RequestFacts(
      userAgent: requestHeader("User-Agent"), sdkVersion: requestHeader("X-SDK-Version"),
      subscriberToken: requestHeader("X-Subscriber-Token"))
  }
}
