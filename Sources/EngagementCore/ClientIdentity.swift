import RegistrationCore
import Synchronization

/// Which SDK a request came from, read from its User-Agent and `X-SDK-Version` (SDK-FACTS:
/// `MarketingCloudSdk/<sdk> (<system> <version>; <locale>; <maker>/<model>) <bundle>/<app>`).
public struct ClientIdentity: Hashable, Sendable, Codable {
  /// The SDK a request came from; an unknown one is held to the documented contract.
  public enum SDK: String, Hashable, Sendable, Codable {
    case ios, android, unknown

    /// The rules this SDK is judged by.
    public var profile: SDKProfile {
      switch self {
      case .ios: .ios
      case .android: .android
      case .unknown: .documented
      }
    }
  }

  /// `ios` (iPadOS included), `android`, or `unknown` when the User-Agent is not a shipped
  /// SDK's.
  public var sdk: SDK
  public var sdkVersion: String?
  /// The system the User-Agent names (`iOS`, `Android`), else the body's platform.
  public var platform: String?
  public var systemVersion: String?
  public var bundleID: String?
  public var appVersion: String?

  public static func read(userAgent: String?, sdkVersionHeader: String?, bodyPlatform: String?)
    -> ClientIdentity
  {
    var identity = ClientIdentity(
      sdk: .unknown, sdkVersion: sdkVersionHeader, platform: bodyPlatform, systemVersion: nil,
      bundleID: nil, appVersion: nil)
    guard let userAgent, userAgent.hasPrefix("MarketingCloudSdk/") else { return identity }
    let afterName = userAgent.dropFirst("MarketingCloudSdk/".count)
    let version = afterName.prefix { $0 != " " }
    if !version.isEmpty { identity.sdkVersion = identity.sdkVersion ?? String(version) }
    if let open = afterName.firstIndex(of: "("), let close = afterName.firstIndex(of: ")"),
      open < close
    {
      let inside = afterName[afterName.index(after: open)..<close]
      let system = inside.split(separator: ";").first.map { $0.split(separator: " ") } ?? []
      if let name = system.first {
        identity.platform = String(name)
        // `UIDevice.systemName`: "iPadOS" on an iPad (SDK-FACTS, second reading).
        switch name.lowercased() {
        case "android": identity.sdk = .android
        case "ios", "ipados": identity.sdk = .ios
        default: identity.sdk = .unknown
        }
      }
      if system.count > 1 { identity.systemVersion = system.dropFirst().joined(separator: " ") }
      let app = afterName[afterName.index(after: close)...].split(separator: " ").last
      if let app, let slash = app.lastIndex(of: "/") {
        identity.bundleID = String(app[..<slash])
        identity.appVersion = String(app[app.index(after: slash)...])
      }
    }
    return identity
  }
}

extension ClientIdentity {
  /// "Android SDK 10.0.0", or the platform with "unknown SDK" when the User-Agent is not a
  /// shipped SDK's (held to the documented contract): how the receiver and a judged capture
  /// name it.
  public var sdkName: String {
    switch sdk {
    case .ios, .android: "\(platform ?? "?") SDK \(sdkVersion ?? "?")\(laterMajor)\(notRead)"
    case .unknown: (platform.map { "\($0), " } ?? "") + "unknown SDK (documented rules)"
    }
  }

  /// The rules this client is judged by: its SDK's profile at the version it names (8.0.0
  /// on; a later major as the newest read), else the newest read.
  public var profile: SDKProfile {
    guard let sdkVersion else { return sdk.profile }
    return Self.profiles.profile(sdk, sdkVersion)
  }

  /// Every registration asks its client's profile: each (SDK, version) is worked out once.
  private static let profiles = ProfileCache()

  /// The profile used, as `--sdk` names it: "android@9.0.0", "ios", "documented".
  public var profileName: String {
    let used = profile
    guard sdk != .unknown else { return used.name.rawValue }
    // A later major is judged by the newest profile read, and named so; a version not read
    // is judged by it too (its profile is the newest, named by the newest's version).
    let version = laterMajor.isEmpty ? used.sdkVersion : sdk.profile.sdkVersion
    return "\(used.name.rawValue)@\(version)"
  }

  /// "judged by the android@9.0.1 profile", with why when the version is not the one named:
  /// for the receiver's timeline.
  public var judgedBy: String {
    guard sdk != .unknown else { return "judged by the documented rules (not a shipped SDK)" }
    let later = laterMajor.isEmpty ? "" : ": \(sdkVersion ?? "?") is a major not read yet"
    return "judged by the \(profileName) profile\(later)\(notRead)"
  }

  /// A version the User-Agent or `X-SDK-Version` names that no profile reads (not a version
  /// by `SDKVersionNumber`'s grammar, or one before 8.0.0) is judged by the newest profile,
  /// and says so: " (version -9.0.0 not read: judged as 10.0.0)".
  var notRead: String {
    guard sdk != .unknown, let sdkVersion, laterMajor.isEmpty,
      sdk.profile.at(version: sdkVersion) == nil
    else { return "" }
    return " (version \(sdkVersion) not read: judged as \(sdk.profile.sdkVersion))"
  }

  /// A major past the newest read (11.x exists; SDK-FACTS, "Across SDK majors") is judged as
  /// 10.x, and says so.
  var laterMajor: String {
    guard let major = sdkVersion.flatMap(SDKVersionNumber.major), major > 10
    else { return "" }
    return " (judged as 10.x: \(major).x not read yet)"
  }
}

/// The profiles of the (SDK, version) pairs seen lately: a fleet runs a handful of versions,
/// and working one out copies and edits a whole profile.
private final class ProfileCache: Sendable {
  private struct Key: Hashable {
    var sdk: ClientIdentity.SDK
    var version: String
  }
  private let known = Mutex<[Key: SDKProfile]>([:])

  func profile(_ sdk: ClientIdentity.SDK, _ version: String) -> SDKProfile {
    let key = Key(sdk: sdk, version: version)
    if let found = known.withLock({ $0[key] }) { return found }
    let made = sdk.profile.at(version: version) ?? sdk.profile
    known.withLock { known in
      // Versions are what clients say: kept within a bound whatever they send.
      if known.count >= 64 { known.removeAll(keepingCapacity: true) }
      known[key] = made
    }
    return made
  }
}
