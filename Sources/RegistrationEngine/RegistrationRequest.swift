import Foundation
import RegistrationCore

/// One HTTP header, in the order and spelling it goes on the wire.
public struct HTTPHeader: Hashable, Sendable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// One registration as it goes on the wire (R6.1), shaped by the SDK profile: the headers and
/// their spelling, the User-Agent, and the per-request stamps (`uuid`, `registrationDateUtc`)
/// the shipped SDKs add after deciding the body is worth sending.
public struct RegistrationRequest: Sendable {
  public var url: URL
  public var headers: [HTTPHeader]
  public var body: [UInt8]
  public var timeout: Double
  /// The payload as sent, stamps included.
  public var payload: RegistrationPayload
  public var profile: SDKProfile

  public init(
    send: InFlightSend, configuration: RegistrationConfiguration, requestID: String = "",
    sentAt: Date = Date(), subscriberToken: String? = nil
  ) {
    let profile = configuration.profile
    var payload = send.payload
    if profile.sendsRequestStamps {
      if profile.sendsUUID { payload.uuid = requestID.isEmpty ? UUID().uuidString : requestID }
      payload.registrationDateUtc = DateText.utcStamp(sentAt)
    }
    url = configuration.registrationURL
    body = profile.sendsRequestStamps ? payload.encodedBytes() : send.body
    timeout = configuration.requestTimeout
    self.payload = payload
    self.profile = profile
    headers = Self.headers(
      payload, configuration: configuration, subscriberToken: subscriberToken, hasBody: true)
  }

  /// The headers an SDK sends on its device routes, spelled as its version spells them.
  static func headers(
    _ payload: RegistrationPayload, configuration: RegistrationConfiguration,
    subscriberToken: String?, hasBody: Bool
  ) -> [HTTPHeader] {
    let profile = configuration.profile
    var headers = [HTTPHeader("Accept", "application/json")]
    if hasBody { headers.append(HTTPHeader("Content-Type", "application/json")) }
    headers += [
      HTTPHeader("User-Agent", Self.userAgent(payload, configuration: configuration)),
      HTTPHeader("Authorization", "Bearer \(configuration.accessToken.revealed)"),
    ]
    if profile.sendsSDKVersionHeader {
      headers.append(HTTPHeader("X-SDK-Version", payload.sdkVersion ?? profile.sdkVersion))
      // Both shipped SDKs send back the token a server handed out earlier.
      if let subscriberToken { headers.append(HTTPHeader("X-Subscriber-Token", subscriberToken)) }
    }
    if profile.headerCase == .lowercase {
      headers = headers.map { HTTPHeader($0.name.lowercased(), $0.value) }
    }
    return headers
  }

  /// A header's value, its name matched in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// A `Retry-After` header read as this request's SDK reads it.
  public func retryAfter(header: String, now: Date) -> Double? {
    profile.retryAfterSeconds(header, now: now)
  }

  /// The SDK's own User-Agent (SDK-FACTS.md), or RegScope's under the documented profile.
  static func userAgent(_ payload: RegistrationPayload, configuration: RegistrationConfiguration)
    -> String
  {
    let sdk = payload.sdkVersion ?? configuration.profile.sdkVersion
    let app = payload.appVersion ?? "unknown"
    let os = payload.platformVersion ?? ""
    let locale = payload.locale ?? "en_US"
    let hwid = payload.hwid ?? "unknown"
    let bundle = configuration.appBundleID
    switch configuration.profile.userAgentForm {
    case .regscope:
      let system = "\(payload.platform ?? "unknown") \(os)".trimmingCharacters(in: .whitespaces)
      return "RegScope MobilePushSDK/\(sdk) (\(system)) App/\(app)"
    case .ios:
      return "MarketingCloudSdk/\(sdk) (iOS \(os); \(locale); Apple/\(hwid)) \(bundle)/\(app)"
    case .android:
      // hwid is "<manufacturer> <model>" on Android: the User-Agent writes it with a slash.
      let parts = hwid.split(separator: " ", maxSplits: 1).map(String.init)
      let device = parts.count == 2 ? "\(parts[0])/\(parts[1])" : "unknown/\(hwid)"
      return "MarketingCloudSdk/\(sdk) (Android \(os); \(locale); \(device)) \(bundle)/\(app)"
    }
  }
}

/// How a registration (and an inbox fetch) reaches a server. The answer is a `SendResult`; a
/// transport never throws.
public protocol RegistrationTransport: Sendable {
  func send(_ request: RegistrationRequest) async -> SendResult
  func fetch(_ request: InboxRequest) async -> SendResult
}

extension RegistrationTransport {
  /// A transport with no server behind it has an empty inbox.
  public func fetch(_ request: InboxRequest) async -> SendResult {
    .answered(status: 200, retryAfter: nil, body: #"{"messages":[]}"#)
  }
}
