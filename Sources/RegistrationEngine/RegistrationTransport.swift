import Foundation
import RegistrationCore

/// One registration as it goes on the wire (R6.1).
public struct RegistrationRequest: Sendable {
  public var url: URL
  public var headers: [String: String]
  public var body: [UInt8]
  public var timeout: Double
  public var payload: RegistrationPayload

  /// `POST {server}/device/v1/registration` with the bearer token, JSON content type and
  /// accept headers, and a User-Agent naming the SDK and app versions.
  public init(
    send: InFlightSend, configuration: RegistrationConfiguration
  ) {
    url = configuration.registrationURL
    body = send.body
    timeout = configuration.requestTimeout
    payload = send.payload
    let sdk = send.payload.sdkVersion ?? "unknown"
    let app = send.payload.appVersion ?? "unknown"
    let os = "\(send.payload.platform ?? "unknown") \(send.payload.platformVersion ?? "")"
    headers = [
      "Authorization": "Bearer \(configuration.accessToken.revealed)",
      "Content-Type": "application/json",
      "Accept": "application/json",
      "User-Agent":
        "RegScope MobilePushSDK/\(sdk) (\(os.trimmingCharacters(in: .whitespaces))) App/\(app)",
    ]
  }
}

/// How a registration reaches a server. The answer is a `SendResult`; a transport never throws.
public protocol RegistrationTransport: Sendable {
  func send(_ request: RegistrationRequest) async -> SendResult
}
