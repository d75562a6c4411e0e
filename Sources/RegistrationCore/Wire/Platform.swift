/// The two platforms the registration API knows (R1.1). The raw value is the wire spelling.
public enum Platform: String, Sendable, Codable, CaseIterable {
  case iOS
  case android = "Android"

  /// The SDK's own platform tag (R2.7): `IOS` on iOS, `Android` on Android (obs.).
  public var tag: String {
    switch self {
    case .iOS: "IOS"
    case .android: "Android"
    }
  }

  /// The platform a body's `platform` names: `iOS`, or `iPadOS` as the iOS SDK writes it on an
  /// iPad (SDK-FACTS, second reading), or `Android`.
  public init?(wireName text: String) {
    switch text {
    case "iOS", "iPadOS": self = .iOS
    case "Android": self = .android
    default: return nil
    }
  }

  /// Case-insensitive, so a config file may say `ios` or `android`.
  public init?(loose text: String) {
    switch text.lowercased() {
    case "ios": self = .iOS
    case "android": self = .android
    default: return nil
    }
  }
}
