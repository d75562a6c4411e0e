import RegistrationCore

/// The watch as JSON.
public enum WatchViews {
  public struct Registration: Encodable, Sendable {
    public var at: Double
    public var interval: Double?
    public var status: Int?
    /// The answer was RegScope's relay's (unreachable, invalid, too slow, full), not the
    /// tenant's.
    public var local: Bool?
    public var retryAfter: Double?
    public var body: String?
    public var changes: [String]
    public var findings: [Finding]
    public var subscriberTokenSent: Bool
  }

  /// The earliest the device's SDK could register next, and the rule that says so.
  public struct Next: Encodable, Sendable {
    public var at: Double
    public var rule: String
    public var why: String
  }

  public struct Timeline: Encodable, Sendable {
    public var deviceID: String
    public var client: Client
    public var registrationCount: Int
    public var registrations: [Registration]
    /// Mobile App Messaging calls, oldest first: shown, never judged.
    public var mobileAppMessaging: [MobileAppMessagingCall]
    /// The tenant's answers to "did it arrive?" (`--tenant` with `--upstream`), oldest first.
    public var readBacks: [ReadBack]
    /// When the tenant is next asked about this device.
    public var readBackDue: Double?
    public var next: Next?
  }

  public struct MobileAppMessagingCall: Encodable, Sendable {
    public var at: Double
    /// `registration`, `engagement` or `billing`.
    public var kind: String
    /// "Mobile App Messaging registration".
    public var title: String
    public var status: Int?
    public var fields: [MobileAppMessagingEvent.Field]
  }

  public struct Client: Encodable, Sendable {
    public var sdk: String
    public var sdkVersion: String?
    /// The profile the device is judged by, as `--sdk` names it (`android@9.0.0`).
    public var profile: String
    public var platform: String?
    public var systemVersion: String?
    public var bundleID: String?
    public var appVersion: String?
    public var subscriberToken: String
    /// Nil until a later request could have sent it back.
    public var subscriberTokenReturned: Bool?
    public var firstSeen: Double
    public var lastSeen: Double
    public var findings: [String: Int]
    /// Findings by severity: `violation`, `warning`, `note` (each present, 0 when none).
    public var severities: [String: Int]
    /// Registrations the server refused (S1), and the newest refusal with its fix.
    public var refused: Int
    public var lastRefusal: String?
    public var otherRoutes: [String: Int]
  }

  /// The subscriber token is masked (`CaptureJudge.shownToken`, unless `maskToken` says
  /// otherwise), in the live API as in a judged capture: docs/captures.md promises no token
  /// prints whole anywhere.
  public static func client(
    _ device: DeviceWatch.Device, maskToken: (String) -> String = CaptureJudge.shownToken
  ) -> Client {
    let identity = device.identity
    return Client(
      sdk: identity.sdk.rawValue, sdkVersion: identity.sdkVersion, profile: identity.profileName,
      platform: identity.platform,
      systemVersion: identity.systemVersion, bundleID: identity.bundleID,
      appVersion: identity.appVersion,
      subscriberToken: maskToken(device.subscriberToken),
      subscriberTokenReturned: device.tokenReturned, firstSeen: device.firstSeen.seconds,
      lastSeen: device.lastSeen.seconds,
      findings: Dictionary(
        uniqueKeysWithValues: device.findingCounts.map { ($0.key.rawValue, $0.value) }),
      severities: Dictionary(
        uniqueKeysWithValues: Finding.Severity.allCases.map {
          ($0.rawValue, device.severityCounts[$0] ?? 0)
        }),
      refused: device.refusedCount, lastRefusal: device.lastRefusal?.summary,
      otherRoutes: device.otherRoutes)
  }

  public static func timeline(
    _ device: DeviceWatch.Device, maskToken: (String) -> String = CaptureJudge.shownToken
  ) -> Timeline {
    Timeline(
      deviceID: device.deviceID, client: client(device, maskToken: maskToken),
      registrationCount: device.registrationCount,
      registrations: device.registrations.map {
        Registration(
          at: $0.at.seconds, interval: $0.interval, status: $0.status,
          local: $0.local ? true : nil, retryAfter: $0.retryAfter,
          body: $0.body.isEmpty ? nil : $0.body, changes: $0.changes, findings: $0.findings,
          subscriberTokenSent: $0.subscriberTokenSent)
      },
      mobileAppMessaging: device.mobileAppMessaging.map {
        MobileAppMessagingCall(
          at: $0.at.seconds, kind: $0.kind, title: $0.title, status: $0.status, fields: $0.fields)
      },
      readBacks: device.readBacks, readBackDue: device.readBackDue?.seconds,
      next: device.nextSend.map { Next(at: $0.at.seconds, rule: $0.rule, why: $0.why) })
  }
}
