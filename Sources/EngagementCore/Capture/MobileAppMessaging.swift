import Foundation
import RegistrationCore

/// A call of the Mobile App Messaging SDK, which a 10.x or 11.x app may run beside MobilePush:
/// its own routes and body on its own base URL (SDK-FACTS, "A second registration"). Shown on
/// its device's timeline with its fields; never judged by the MobilePush rules.
public struct MobileAppMessagingEvent: Sendable, Hashable {
  public struct Field: Sendable, Hashable, Encodable {
    public var name: String
    /// The value as sent: a string as it is, anything else as compact JSON.
    public var value: String
  }

  /// `registration`, `engagement` or `billing`, from the route.
  public var kind: String
  public var at: Instant
  public var status: Int?
  /// The fields the SDK was seen to send, in that order, then any others.
  public var fields: [Field]

  /// "Mobile App Messaging registration".
  public var title: String { "Mobile App Messaging \(kind)" }

  /// The body fields observed (SDK-FACTS), in the order given there.
  public static let knownFields = [
    "eventId", "registrationId", "deviceId", "dateTimeInDevice", "deviceSystemToken",
    "pushEnabled", "deviceTimeZone", "deviceModel", "devicePlatform", "deviceVersion",
    "sdkVersion", "mobileAppId", "mobileAppName", "mobileAppVersion", "locale", "attributes",
    "partyIdentificationNumber", "partyIdentificationType", "partyIdentificationName",
  ]
  /// Fields holding a secret of the device's, fingerprinted wherever they are shown.
  static let secretFields: Set<String> = ["deviceSystemToken"]
  /// The longest value kept of a field: these are shown, not judged.
  static let valueLimit = 256

  /// The route's name in `SDKRoutes.others` as the kind of event: nil for any other route.
  public static func kind(ofRoute route: String) -> String? {
    switch route {
    case "mobileAppMessagingRegistration": "registration"
    case "mobileAppMessagingEngagement": "engagement"
    case "mobileAppMessagingBilling": "billing"
    default: nil
    }
  }

  /// The event a body makes (its fields, secrets masked), or nil when it is not a JSON object.
  public static func read(kind: String, body: [UInt8], at: Instant, status: Int?) -> Self? {
    guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(body))
    else { return nil }
    let others = object.keys.filter { !knownFields.contains($0) }.sorted()
    let fields = (knownFields + others).compactMap { name -> Field? in
      guard let value = object[name] else { return nil }
      var text = Self.text(value)
      if secretFields.contains(name) { text = TokenText.fingerprinted(text) }
      if text.count > valueLimit { text = String(text.prefix(valueLimit)) + "…" }
      return Field(name: name, value: text)
    }
    return Self(kind: kind, at: at, status: status, fields: fields)
  }

  private static func text(_ value: JSONValue) -> String {
    if case .string(let string) = value { return string }
    return value.compactText
  }

  /// One line for a timeline: the fields that say what the call was, then how many more.
  public var summary: String {
    let shown = ["deviceId", "pushEnabled", "devicePlatform", "sdkVersion", "mobileAppId"]
    let parts = shown.compactMap { name in
      fields.first { $0.name == name }.map { "\($0.name) \($0.value)" }
    }
    let more = fields.count - parts.count
    return (parts + (more > 0 ? ["\(more) more field\(more == 1 ? "" : "s")"] : []))
      .joined(separator: ", ")
  }
}
