/// The device half of the contact record (R1.1). `deviceID` is made once per installation
/// (R1.2); the rest describes this run of the app and may change between launches (R3.2).
public struct DeviceFields: Hashable, Sendable, Codable {
  public var deviceID: String
  public var registrationId: String
  public var etAppId: String
  public var platform: Platform
  public var environment: DeviceEnvironment

  public init(
    deviceID: String, registrationId: String, etAppId: String, platform: Platform,
    environment: DeviceEnvironment
  ) {
    self.deviceID = deviceID
    self.registrationId = registrationId
    self.etAppId = etAppId
    self.platform = platform
    self.environment = environment
  }
}

/// What the operating system and the app report at launch. A field that differs from the
/// stored record at launch is a change that schedules a registration (R3.2).
public struct DeviceEnvironment: Hashable, Sendable, Codable {
  public var deviceToken: String?
  public var platformVersion: String
  public var appVersion: String
  public var sdkVersion: String
  public var hwid: String
  public var locale: String
  public var language: String
  /// UTC offset in seconds; sent as a string (R1.1).
  public var timeZone: Int
  public var dst: Bool
  public var pushEnabled: Bool
  public var quietPushEnabled: Bool
  public var locationEnabled: Bool
  public var proximityEnabled: Bool
  /// iOS only (R6.2).
  public var badge: Int?

  public init(
    deviceToken: String? = nil, platformVersion: String = "17.5", appVersion: String = "1.0.0",
    sdkVersion: String = "8.1.0", hwid: String = "iPhone15,2", locale: String = "en_US",
    language: String = "en", timeZone: Int = 0, dst: Bool = false, pushEnabled: Bool = true,
    quietPushEnabled: Bool = false, locationEnabled: Bool = false, proximityEnabled: Bool = false,
    badge: Int? = 0
  ) {
    self.deviceToken = deviceToken
    self.platformVersion = platformVersion
    self.appVersion = appVersion
    self.sdkVersion = sdkVersion
    self.hwid = hwid
    self.locale = locale
    self.language = language
    self.timeZone = timeZone
    self.dst = dst
    self.pushEnabled = pushEnabled
    self.quietPushEnabled = quietPushEnabled
    self.locationEnabled = locationEnabled
    self.proximityEnabled = proximityEnabled
    self.badge = badge
  }

  /// A plausible device for demos and tests on the given platform, running the profile's SDK
  /// version. Android's hwid is "<manufacturer> <model>", as its SDK writes it.
  public static func demo(_ platform: Platform, profile: SDKProfile = .documented)
    -> DeviceEnvironment
  {
    switch platform {
    case .iOS:
      DeviceEnvironment(sdkVersion: profile.sdkVersion)
    case .android:
      DeviceEnvironment(
        platformVersion: "14", sdkVersion: profile.sdkVersion, hwid: "Google Pixel 8",
        badge: nil)
    }
  }
}
