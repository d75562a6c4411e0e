import Foundation

/// The input rules of R2 as pure functions: each returns the cleaned value or the reason it
/// is refused. `RegistrationMachine` applies them; the inspector's editors call them directly
/// to validate as the user types.
public enum InputRules {
  public static let contactKeyMaxLength = 100
  public static let attributeKeyMaxLength = 128

  /// R2.5: attribute keys reserved for the SDK, matched case-insensitively (obs.).
  public static let reservedAttributeKeys: [String] = [
    "addressId", "alias", "apId", "backgroundRefreshEnabled", "badge", "channel", "contactId",
    "contactKey", "createdBy", "createdDate", "customObjectKey", "device", "deviceId",
    "deviceType", "gcmSenderId", "hardwareId", "isHonorDst", "lastAppOpen", "lastMessageOpen",
    "lastSend", "locationEnabled", "messageOpenCount", "modifiedBy", "modifiedDate", "optInDate",
    "optInMethodId", "optInStatusId", "optOutDate", "optOutMethodId", "optOutStatusId",
    "platform", "platformVersion", "providerToken", "proximityEnabled", "pushAddressExtensionId",
    "pushApplicationId", "sdkVersion", "sendCount", "source", "sourceObjectId", "status",
    "systemToken", "timezone", "utcOffset", "signedString", "quietPushEnabled",
  ]

  private static let reservedLowercased = Set(reservedAttributeKeys.map { $0.lowercased() })

  /// R2.4: contact keys that identify nobody in particular.
  public static let genericContactKeys: Set<String> = [
    "test", "user", "null", "nil", "none", "unknown", "anonymous", "guest", "default",
    "undefined", "0", "-1", "n/a", "na", "admin", "email", "customer", "contactkey",
    "subscriberkey", "abc", "123",
  ]

  /// - Parameter alsoReserved: words an SDK reserves on top of R2.5's (iOS: `HWID`).
  public static func isReservedAttributeKey(_ key: String, alsoReserved: [String] = []) -> Bool {
    let lowered = key.lowercased()
    return reservedLowercased.contains(lowered)
      || alsoReserved.contains { $0.lowercased() == lowered }
  }

  /// Removes leading and trailing white space and newlines. Most input has none, so that
  /// case returns the string itself without copying.
  public static func trimmed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.first, let last = scalars.last else { return text }
    let isSpace = isWhitespace
    if !isSpace(first) && !isSpace(last) { return text }
    guard let start = scalars.firstIndex(where: { !isSpace($0) }),
      let end = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[start...end])
  }

  /// Unicode's White_Space, with ASCII answered without a property lookup (every field of
  /// every registration is trimmed and checked for blankness).
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.isASCII else { return scalar.properties.isWhitespace }
    return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
  }

  /// `text.count > limit`, without counting characters when the UTF-8 length already says no.
  static func exceeds(_ text: String, _ limit: Int) -> Bool {
    text.utf8.count > limit && text.count > limit
  }

  /// R2.1, R2.2: the trimmed contact key, or why it is refused.
  public static func contactKey(_ raw: String) -> Result<String, Rejection> {
    let key = trimmed(raw)
    if key.isEmpty {
      return .failure(
        Rejection(
          rule: "R2.1", field: "contact key", reason: "is empty after trimming white space"))
    }
    if exceeds(key, contactKeyMaxLength) {
      return .failure(
        Rejection(
          rule: "R2.2", field: "contact key",
          reason: "is \(key.count) characters; at most \(contactKeyMaxLength) are allowed"))
    }
    return .success(key)
  }

  /// R2.4: a generic key is accepted, but the engine warns.
  public static func isGenericContactKey(_ key: String) -> Bool {
    let lowered = key.lowercased()
    if genericContactKeys.contains(lowered) { return true }
    guard let first = lowered.first else { return false }
    return lowered.allSatisfy { $0 == first }
  }

  /// R2.5: the trimmed attribute key, or why it is refused.
  public static func attributeKey(_ raw: String, alsoReserved: [String] = [])
    -> Result<String, Rejection>
  {
    let key = trimmed(raw)
    if key.isEmpty {
      return .failure(
        Rejection(
          rule: "R2.5", field: "attribute key", reason: "is empty after trimming white space"))
    }
    if exceeds(key, attributeKeyMaxLength) {
      return .failure(
        Rejection(
          rule: "R2.5", field: "attribute key",
          reason: "is \(key.count) characters; at most \(attributeKeyMaxLength) are allowed"))
    }
    if isReservedAttributeKey(key, alsoReserved: alsoReserved) {
      return .failure(
        Rejection(
          rule: "R2.5", field: "attribute \(key)",
          reason: "is a reserved word; the SDK keeps it for its own use"))
    }
    return .success(key)
  }

  /// R2.6: the trimmed value (empty allowed), or a refusal for null.
  public static func attributeValue(_ raw: String?, key: String) -> Result<String, Rejection> {
    guard let raw else {
      return .failure(
        Rejection(
          rule: "R2.6", field: "attribute \(key)",
          reason: "value may not be null; use attr clear to remove it"))
    }
    return .success(trimmed(raw))
  }

  /// R2.7: the trimmed tag, or why it is refused.
  public static func tag(_ raw: String, maxLength: Int? = nil) -> Result<String, Rejection> {
    let tag = trimmed(raw)
    if tag.isEmpty {
      return .failure(
        Rejection(rule: "R2.7", field: "tag", reason: "is empty after trimming white space"))
    }
    if let maxLength, exceeds(tag, maxLength) {
      return .failure(
        Rejection(
          rule: "R2.7", field: "tag",
          reason: "is \(tag.count) characters; at most \(maxLength) are allowed (obs.)"))
    }
    return .success(tag)
  }

  /// Parses a boolean as people type it: true/false, yes/no, on/off, 1/0.
  public static func boolean(_ raw: String) -> Bool? {
    switch trimmed(raw).lowercased() {
    case "true", "yes", "on", "1": true
    case "false", "no", "off", "0": false
    default: nil
    }
  }
}
