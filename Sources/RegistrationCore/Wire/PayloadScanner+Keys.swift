/// The payload's wire keys and where each is found: what `PayloadScanner` reads a key into.
extension PayloadScanner {
  enum Field {
    case string(StringField)
    case boolean(BooleanField)
    case badge, tags, attributes
  }

  /// The payload's string fields, set by a switch: a key path's write costs hundreds of
  /// instructions, and a body has a dozen of them.
  enum StringField {
    case deviceID, deviceToken, subscriberKey, etAppId, platform, platformVersion, appVersion
    case sdkVersion, hwid, locale, language, timeZone, registrationId, uuid, signedString
    case registrationDateUtc

    func set(_ value: String?, on payload: inout RegistrationPayload) {
      switch self {
      case .deviceID: payload.deviceID = value
      case .deviceToken: payload.deviceToken = value
      case .subscriberKey: payload.subscriberKey = value
      case .etAppId: payload.etAppId = value
      case .platform: payload.platform = value
      case .platformVersion: payload.platformVersion = value
      case .appVersion: payload.appVersion = value
      case .sdkVersion: payload.sdkVersion = value
      case .hwid: payload.hwid = value
      case .locale: payload.locale = value
      case .language: payload.language = value
      case .timeZone: payload.timeZone = value
      case .registrationId: payload.registrationId = value
      case .uuid: payload.uuid = value
      case .signedString: payload.signedString = value
      case .registrationDateUtc: payload.registrationDateUtc = value
      }
    }
  }

  enum BooleanField {
    case dst, pushEnabled, quietPushEnabled, locationEnabled, proximityEnabled

    func set(_ value: Bool?, on payload: inout RegistrationPayload) {
      switch self {
      case .dst: payload.dst = value
      case .pushEnabled: payload.pushEnabled = value
      case .quietPushEnabled: payload.quietPushEnabled = value
      case .locationEnabled: payload.locationEnabled = value
      case .proximityEnabled: payload.proximityEnabled = value
      }
    }
  }

  /// The payload's wire keys, as bytes: a key is found without making a string of it.
  static let fields: [(name: [UInt8], field: Field)] = wireKeys.map {
    (Array($0.0.utf8), $0.1)
  }
  static let wireKeys: [(String, Field)] = [
    ("deviceID", .string(.deviceID)), ("device_Token", .string(.deviceToken)),
    ("subscriberKey", .string(.subscriberKey)), ("etAppId", .string(.etAppId)),
    ("platform", .string(.platform)), ("platform_Version", .string(.platformVersion)),
    ("app_Version", .string(.appVersion)), ("sdk_Version", .string(.sdkVersion)),
    ("hwid", .string(.hwid)), ("locale", .string(.locale)), ("language", .string(.language)),
    ("timeZone", .string(.timeZone)), ("registrationId", .string(.registrationId)),
    ("uuid", .string(.uuid)), ("signedString", .string(.signedString)),
    ("registrationDateUtc", .string(.registrationDateUtc)), ("dST", .boolean(.dst)),
    ("push_Enabled", .boolean(.pushEnabled)), ("quietPushEnabled", .boolean(.quietPushEnabled)),
    ("location_Enabled", .boolean(.locationEnabled)),
    ("proximity_Enabled", .boolean(.proximityEnabled)), ("badge", .badge), ("tags", .tags),
    ("attributes", .attributes),
  ]

  /// Where each wire key's length and first byte point in `fields` (one past, zero for none):
  /// no two keys share both, so a key is found with one look and one comparison (searched
  /// in order, a body's keys cost a fifth of reading it).
  static let keyTable: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 32 << 7)
    for (index, entry) in fields.enumerated() {
      table[keySlot(count: entry.name.count, first: entry.name[0])] = UInt8(index + 1)
    }
    return table
  }()

  static func keySlot(count: Int, first: UInt8) -> Int {
    min(count, 31) << 7 | Int(first & 0x7F)
  }

  /// The index in `fields` of the wire key `key`; nil for a key the payload does not have.
  static func fieldIndex(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let first = key.first else { return nil }
    let entry = Int(keyTable[keySlot(count: key.count, first: first)])
    guard entry > 0 else { return nil }
    let name = fields[entry - 1].name
    guard name.count == key.count else { return nil }
    for offset in 0..<key.count where name[offset] != key[offset] { return nil }
    return entry - 1
  }
}
