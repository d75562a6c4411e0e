/// What the core needs from the configuration (R7) to decide; no secrets, no URLs.
public struct MachineSettings: Hashable, Sendable {
  public var platform: Platform
  public var etAppId: String
  public var delayRegistrationUntilContactKeyIsSet: Bool
  /// Debug builds carry the SDK's `DEBUG` tag (R2.7, obs.).
  public var debugBuild: Bool
  public var hasAccessToken: Bool
  /// Which SDK the machine is being (documented, ios, android).
  public var profile: SDKProfile
  /// A what-if for fleets, not what any SDK does: each retry's wait spread by up to ± this
  /// share of itself, the same for the same device and attempt. 0 (the SDKs): no spread.
  public var retryJitter: Double = 0

  public init(
    platform: Platform, etAppId: String, delayRegistrationUntilContactKeyIsSet: Bool = false,
    debugBuild: Bool = false, hasAccessToken: Bool = true, profile: SDKProfile = .documented
  ) {
    self.platform = platform
    self.etAppId = etAppId
    self.delayRegistrationUntilContactKeyIsSet = delayRegistrationUntilContactKeyIsSet
    self.debugBuild = debugBuild
    self.hasAccessToken = hasAccessToken
    self.profile = profile
  }

  /// The SDK's own tags on this device: always present, never removable (R2.7).
  public func systemTags(hwid: String) -> [String] {
    profile.systemTags(platform: platform, debugBuild: debugBuild, hwid: hwid)
  }

  /// Every tag a registration of `record` carries: the SDK's own plus the app's, sorted (R6.2).
  public func allTags(of record: ContactRecord) -> [String] {
    record.tags.union(
      profile.sentSystemTags(
        platform: platform, debugBuild: debugBuild, hwid: record.device.environment.hwid)
    ).sorted()
  }
}

/// What one input to the machine produced: the events to announce, whether the state must be
/// stored before anything is acknowledged, and a send to start.
public struct Step: Sendable {
  public var events: [RegistrationEvent] = []
  public var persist = false
  public var send: InFlightSend?

  public init() {}
}
