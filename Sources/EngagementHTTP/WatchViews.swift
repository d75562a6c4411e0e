import EngagementCore
import RegistrationCore

/// The watch as JSON.
enum WatchViews {
  struct Registration: Encodable {
    var at: Double
    var interval: Double?
    var status: Int?
    /// The answer was RegScope's relay's (unreachable, invalid, too slow, full), not the
    /// tenant's.
    var local: Bool?
    var retryAfter: Double?
    var body: String?
    var changes: [String]
    var findings: [Finding]
    var subscriberTokenSent: Bool
  }

  /// The earliest the device's SDK could register next, and the rule that says so.
  struct Next: Encodable {
    var at: Double
    var rule: String
    var why: String
  }

  struct Timeline: Encodable {
    var deviceID: String
    var client: Client
    var registrationCount: Int
    var registrations: [Registration]
    var next: Next?
  }

  struct Client: Encodable {
    var sdk: String
    var sdkVersion: String?
    var platform: String?
    var systemVersion: String?
    var bundleID: String?
    var appVersion: String?
    var subscriberToken: String
    /// Nil until a later request could have sent it back.
    var subscriberTokenReturned: Bool?
    var firstSeen: Double
    var lastSeen: Double
    var findings: [String: Int]
    /// Findings by severity: `violation`, `warning`, `note` (each present, 0 when none).
    var severities: [String: Int]
    /// Registrations the server refused (S1), and the newest refusal with its fix.
    var refused: Int
    var lastRefusal: String?
    var otherRoutes: [String: Int]
  }

  static func client(_ device: DeviceWatch.Device) -> Client {
    let identity = device.identity
    return Client(
      sdk: identity.sdk.rawValue, sdkVersion: identity.sdkVersion, platform: identity.platform,
      systemVersion: identity.systemVersion, bundleID: identity.bundleID,
      appVersion: identity.appVersion, subscriberToken: device.subscriberToken,
      subscriberTokenReturned: device.tokenReturned, firstSeen: device.firstSeen.seconds,
      lastSeen: device.lastSeen.seconds, findings: device.findingCounts,
      severities: Dictionary(
        uniqueKeysWithValues: Finding.Severity.allCases.map {
          ($0.rawValue, device.severityCounts[$0] ?? 0)
        }),
      refused: device.refusedCount, lastRefusal: device.lastRefusal?.summary,
      otherRoutes: device.otherRoutes)
  }

  static func timeline(_ device: DeviceWatch.Device) -> Timeline {
    Timeline(
      deviceID: device.deviceID, client: client(device),
      registrationCount: device.registrationCount,
      registrations: device.registrations.map {
        Registration(
          at: $0.at.seconds, interval: $0.interval, status: $0.status,
          local: $0.local ? true : nil, retryAfter: $0.retryAfter,
          body: $0.body.isEmpty ? nil : $0.body, changes: $0.changes, findings: $0.findings,
          subscriberTokenSent: $0.subscriberTokenSent)
      },
      next: device.nextSend.map { Next(at: $0.at.seconds, rule: $0.rule, why: $0.why) })
  }
}
