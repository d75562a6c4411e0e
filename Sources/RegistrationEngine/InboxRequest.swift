import Foundation
import RegistrationCore

/// The inbox fetch as the SDK's version sends it (SDK-FACTS, "Across SDK majors"):
/// `GET {server}/device/v1/{appId}/message/?deviceid=ID` with `&messagetype=8&contenttype=2`
/// (8.x) or `&wm=W` (9.x, 10.0), and the headers of the device routes in that version's case.
/// When the SDK fetches, and the watermark's value, are not in the facts: RegScope fetches on
/// the `inbox` command, with the watermark of a device that has no messages yet (0).
public struct InboxRequest: Sendable {
  public var url: URL
  /// The path and query as sent, as the event stream shows the fetch.
  public var target: String
  public var headers: [HTTPHeader]
  public var timeout: Double
  public var profile: SDKProfile
  /// The watermark of a device that has seen no message.
  public static let firstWatermark = "0"

  public init(
    payload: RegistrationPayload, configuration: RegistrationConfiguration,
    subscriberToken: String?
  ) {
    profile = configuration.profile
    let deviceID = payload.deviceID ?? ""
    var components = URLComponents(
      url: configuration.serverURL.appendingPathComponent(
        "device/v1/\(configuration.appID)/message/"),
      resolvingAgainstBaseURL: false)
    var query = [URLQueryItem(name: "deviceid", value: deviceID)]
    switch profile.inboxQuery {
    case .messageTypeContentType:
      query += [
        URLQueryItem(name: "messagetype", value: "8"),
        URLQueryItem(name: "contenttype", value: "2"),
      ]
    case .watermark:
      query.append(URLQueryItem(name: "wm", value: Self.firstWatermark))
    }
    components?.queryItems = query
    url = components?.url ?? configuration.serverURL
    target =
      (components?.percentEncodedPath ?? "")
      + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
    headers = RegistrationRequest.headers(
      payload, configuration: configuration, subscriberToken: subscriberToken, hasBody: false)
    timeout = configuration.requestTimeout
  }

  /// A header's value, its name matched in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
