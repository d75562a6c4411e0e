import Foundation

/// The registration object, exactly as it goes on the wire (R6.2) and as listeners receive it
/// (R5.1). Every field is optional so that the server side can decode whatever a device sends;
/// a payload built from a record always has the required ones (R6.3).
public struct RegistrationPayload: Hashable, Sendable, Codable {
  public struct Attribute: Hashable, Sendable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  public var deviceID: String?
  public var deviceToken: String?
  public var subscriberKey: String?
  public var etAppId: String?
  public var platform: String?
  public var platformVersion: String?
  public var appVersion: String?
  public var sdkVersion: String?
  public var hwid: String?
  public var locale: String?
  public var language: String?
  public var timeZone: String?
  public var dst: Bool?
  public var pushEnabled: Bool?
  public var quietPushEnabled: Bool?
  public var locationEnabled: Bool?
  public var proximityEnabled: Bool?
  public var badge: Int?
  public var registrationId: String?
  public var attributes: [Attribute]?
  public var tags: [String]?
  /// The shipped SDKs add these three (SDK-FACTS.md): a fresh id per request, a signature when
  /// configured, and the send time. They are stamped on the wire, after "unchanged" is decided.
  public var uuid: String?
  public var signedString: String?
  public var registrationDateUtc: String?
  /// How the body was read, not what it carries: the keys it held more than once, each read
  /// by its last value as the tenant reads it (`WireDecoding`). Never written (no wire key),
  /// not part of the record; nil for a body with every key once, as every SDK sends it.
  public var duplicateKeys: [DuplicateKey]? = nil

  /// A key an object of the body held more than once, and its values as they were written.
  public struct DuplicateKey: Hashable, Sendable, Codable {
    /// Where it is: `deviceID`, `attributes[0].key`.
    public var key: String
    /// Each value's JSON text, in order (cut when long); the last is the one read. At most
    /// `StrictJSON.valuesSaid`: the first ones and the last, when the key came more often.
    public var values: [String]
    /// How many times the key came: `values.count`, or more when values were left out.
    public var times: Int

    public init(key: String, values: [String], times: Int? = nil) {
      self.key = key
      self.values = values
      self.times = max(times ?? values.count, values.count)
    }
  }

  enum CodingKeys: String, CodingKey {
    case deviceID
    case deviceToken = "device_Token"
    case subscriberKey
    case etAppId
    case platform
    case platformVersion = "platform_Version"
    case appVersion = "app_Version"
    case sdkVersion = "sdk_Version"
    case hwid
    case locale
    case language
    case timeZone
    case dst = "dST"
    case pushEnabled = "push_Enabled"
    case quietPushEnabled
    case locationEnabled = "location_Enabled"
    case proximityEnabled = "proximity_Enabled"
    case badge
    case registrationId
    case attributes
    case tags
    case uuid
    case signedString
    case registrationDateUtc
  }

  public init() {}

  /// The whole current record as a registration (R3.3: never a diff). Attributes are sorted
  /// by key, tags sorted; cleared attributes ride along once with an empty value (R2.6);
  /// `subscriberKey`, `device_Token` and `badge` appear only when they apply (R6.2). The
  /// settings' profile decides the SDK's own tags and the fields it writes differently.
  public init(record: ContactRecord, settings: MachineSettings) {
    let profile = settings.profile
    let device = record.device
    let env = device.environment
    deviceID = device.deviceID
    deviceToken = env.deviceToken
    subscriberKey = record.contactKey
    etAppId = device.etAppId
    platform = device.platform.rawValue
    platformVersion = env.platformVersion
    appVersion = env.appVersion
    sdkVersion = env.sdkVersion
    hwid = env.hwid
    locale = env.locale
    language = profile.sendsLanguageAndBadge ? env.language : nil
    timeZone = profile.timeZoneText(env.timeZone)
    dst = env.dst
    pushEnabled = env.pushEnabled
    quietPushEnabled = profile.quietPushAlwaysFalse ? false : env.quietPushEnabled
    locationEnabled = env.locationEnabled
    proximityEnabled = env.proximityEnabled
    badge = device.platform == .iOS && profile.sendsLanguageAndBadge ? env.badge : nil
    registrationId = profile.sendsRegistrationId ? device.registrationId : nil
    var pairs = record.attributes.map { Attribute(key: $0.key, value: $0.value) }
    for cleared in record.clearedAttributes where record.attributes[cleared] == nil {
      pairs.append(Attribute(key: cleared, value: ""))
    }
    pairs.sort { $0.key < $1.key }
    attributes = pairs
    tags = settings.allTags(of: record)
  }

  /// The wire keys each request stamps afresh (SDK-FACTS): left out of "unchanged".
  public static let requestStampKeys: Set<String> = ["uuid", "registrationDateUtc"]

  /// The record this body carries, without what each request stamps (`uuid`,
  /// `registrationDateUtc`). Both SDKs hash this to decide "unchanged" (R3.4); `signedString`
  /// is part of it, so a rotated signature is a change.
  public var record: RegistrationPayload {
    var payload = self
    payload.uuid = nil
    payload.registrationDateUtc = nil
    payload.duplicateKeys = nil
    return payload
  }

  /// Whether two bodies carry the same record: the one comparison the machine (R3.4), the
  /// server's judge and its timeline use.
  public func isSameRecord(as other: RegistrationPayload) -> Bool { record == other.record }

  /// The attribute keys this payload clears (sent with an empty value because of a clear).
  public func clearedKeys(in record: ContactRecord) -> Set<String> {
    Set((attributes ?? []).lazy.filter { record.clearedAttributes.contains($0.key) }.map(\.key))
  }

  /// Canonical JSON: keys sorted, so equal payloads give equal bytes and equal hashes.
  public func encodedBody() -> Data { Data(CanonicalBody.encode(self)) }

  /// The canonical body as bytes, without the copy into `Data`.
  public func encodedBytes() -> [UInt8] { CanonicalBody.encode(self) }
}

/// A body's fingerprint, so "identical to the last one the server acknowledged" (R3.4) can be
/// stored and shown without keeping two copies around. FNV-1a for the documented profile (fast,
/// stable); SHA-1 and SHA-256 as the iOS and Android SDKs hash it.
public enum BodyHash {
  public static func digest(_ bytes: [UInt8], _ kind: SDKProfile.BodyHashKind) -> String {
    switch kind {
    case .fnv1a64: return fnv1a64(bytes)
    case .sha1: return "sha1:" + hex(SHADigest.sha1(bytes))
    case .sha256: return "sha256:" + hex(SHADigest.sha256(bytes))
    }
  }

  private static func hex(_ digest: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
