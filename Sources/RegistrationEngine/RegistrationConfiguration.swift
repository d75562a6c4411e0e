import Foundation
import RegistrationCore
import SystemCalls

/// One named configuration (R7): which app, which credentials, which server, which mode.
public struct RegistrationConfiguration: Hashable, Sendable {
  public var name: String
  public var appID: String
  public var accessToken: AccessToken
  public var serverURL: URL
  public var delayRegistrationUntilContactKeyIsSet: Bool
  public var platform: Platform
  /// Debug builds carry the SDK's `DEBUG` tag (R2.7).
  public var debugBuild: Bool
  /// Seconds before a send with no answer counts as failed (R4.1: time-out).
  public var requestTimeout: Double
  /// Which SDK to be (documented, ios, android).
  public var profile: SDKProfile = .documented
  /// The app's bundle id (iOS) or package name (Android), for the SDKs' User-Agent.
  public var appBundleID = "com.example.app"
  /// What the shipped SDK would refuse at start-up, under the documented profile only (under
  /// ios and android, building the configuration fails instead); and what the app's file
  /// writes almost right, which its SDK or wrapper ignores without a word.
  public var startupWarnings: [String] = []
  /// The longest request time-out a configuration may ask for: ten minutes.
  public static let longestRequestTimeout: Double = 600

  /// `POST {server}/device/v1/registration` (R6.1).
  public var registrationURL: URL {
    serverURL.appendingPathComponent(RegistrationRoute.path)
  }

  public var machineSettings: MachineSettings {
    MachineSettings(
      platform: platform, etAppId: appID,
      delayRegistrationUntilContactKeyIsSet: delayRegistrationUntilContactKeyIsSet,
      debugBuild: debugBuild, hasAccessToken: !accessToken.isEmpty, profile: profile)
  }
}

/// What is wrong with a configuration, and where: the file, the configuration, the setting.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var source: String
  public var configuration: String?
  public var setting: String?
  public var reason: String

  public var description: String {
    var location = source
    if let configuration { location += ", configuration \"\(configuration)\"" }
    if let setting { location += ", setting \"\(setting)\"" }
    return "\(location): \(reason)"
  }
}

/// Builds a configuration in code (R7.2), the way the SDK's config builder does. `build()`
/// checks every setting before anything runs.
public struct RegistrationConfigurationBuilder: Sendable {
  public var name = "default"
  public var appID: String?
  public var accessToken: String?
  public var serverURL: String?
  public var delayRegistrationUntilContactKeyIsSet = false
  public var platform: Platform = .iOS
  public var debugBuild = false
  public var requestTimeout: Double = 30
  public var profile: SDKProfile = .documented
  public var appBundleID = "com.example.app"

  public init() {}

  public func setApplicationId(_ value: String) -> Self { with { $0.appID = value } }
  public func setAccessToken(_ value: String) -> Self { with { $0.accessToken = value } }
  public func setMarketingCloudServerUrl(_ value: String) -> Self { with { $0.serverURL = value } }
  public func setDelayRegistrationUntilContactKeyIsSet(_ value: Bool) -> Self {
    with { $0.delayRegistrationUntilContactKeyIsSet = value }
  }
  public func setPlatform(_ value: Platform) -> Self { with { $0.platform = value } }
  public func setDebugBuild(_ value: Bool) -> Self { with { $0.debugBuild = value } }
  public func setRequestTimeout(_ seconds: Double) -> Self { with { $0.requestTimeout = seconds } }
  public func setName(_ value: String) -> Self { with { $0.name = value } }
  public func setSDKProfile(_ value: SDKProfile) -> Self { with { $0.profile = value } }
  public func setAppBundleID(_ value: String) -> Self { with { $0.appBundleID = value } }

  private func with(_ change: (inout Self) -> Void) -> Self {
    var copy = self
    change(&copy)
    return copy
  }

  public func build(source: String = "configuration builder") throws(ConfigurationError)
    -> RegistrationConfiguration
  {
    func fail(_ setting: String, _ reason: String) -> ConfigurationError {
      ConfigurationError(source: source, configuration: name, setting: setting, reason: reason)
    }
    func required(_ value: String?, _ setting: String) throws(ConfigurationError) -> String {
      guard let value else { throw fail(setting, "is missing") }
      let trimmed = InputRules.trimmed(value)
      guard !trimmed.isEmpty else { throw fail(setting, "is empty") }
      return trimmed
    }
    let appID = try required(appID, "appid")
    let token = try required(accessToken, "accesstoken")
    let serverText = try required(serverURL, "marketing_cloud_server_url")
    guard let url = URL(string: serverText), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      throw fail(
        "marketing_cloud_server_url", "\"\(serverText)\" is not an http(s) URL with a host")
    }
    // The shipped SDKs refuse to start on these; the documented profile only warns.
    var warnings: [String] = []
    for (setting, problem) in SDKStartupChecks.problems(appID: appID, accessToken: token) {
      if profile.name == .documented {
        warnings.append("\(setting) \(problem) (the \(Self.shippedSDKs) would not start)")
      } else {
        throw fail(setting, "\(problem): the \(profile.name.rawValue) SDK refuses to start")
      }
    }
    guard requestTimeout.isFinite, requestTimeout > 0,
      requestTimeout <= RegistrationConfiguration.longestRequestTimeout
    else {
      throw fail(
        "requesttimeout",
        "must be above 0 and at most \(NumberText.compact(RegistrationConfiguration.longestRequestTimeout)) seconds; got \(NumberText.compact(requestTimeout))"
      )
    }
    return RegistrationConfiguration(
      name: name, appID: appID, accessToken: AccessToken(token), serverURL: url,
      delayRegistrationUntilContactKeyIsSet: delayRegistrationUntilContactKeyIsSet,
      platform: platform, debugBuild: debugBuild, requestTimeout: requestTimeout,
      profile: profile, appBundleID: appBundleID, startupWarnings: warnings)
  }

  private static let shippedSDKs = "shipped iOS and Android SDKs"
}

/// The app's file of configurations (R7.1), as it is: the iOS SDK's
/// `MarketingCloudSDKConfiguration.json` (`[{"name": "production", "appid": "...",
/// "accesstoken": "...", "marketing_cloud_server_url": "https://...", "mid": "...",
/// "delayregistrationuntilcontactkeyisset": true}]`, to which RegScope adds `regscope_sdk`,
/// `regscope_bundle_id`, `platform`, `debug` and `requesttimeout`), a Cordova `config.xml`
/// (`CordovaConfigFile`) or an Expo `app.json` (`ExpoConfigFile`). Each becomes the iOS file's
/// settings, so one `build` checks them all. The iOS file's keys are matched
/// case-insensitively; keys RegScope does not use (analytics, inbox, ...) are ignored, as the
/// SDK does, and a key that is almost right is named with the right spelling.
public enum ConfigurationFile {
  /// The largest configuration file read: a real one is a few kilobytes; a path to a huge
  /// file (or a device) is refused before it is read.
  public static let largestFile = 1 << 20

  /// - Parameter name: which configuration; nil is the file's only one.
  /// - Parameter sdk: a profile chosen elsewhere (`--sdk`), over the file's `regscope_sdk`.
  public static func load(path: String, name: String? = nil, sdk: SDKProfile? = nil)
    throws(ConfigurationError) -> RegistrationConfiguration
  {
    switch SystemCalls.readFile(path, atMost: largestFile) {
    case .success(let bytes): return try parse(Data(bytes), source: path, name: name, sdk: sdk)
    case .failure(let refusal):
      let hint =
        if case .tooLarge = refusal {
          " (an SDK configuration file is a few kilobytes)"
        } else { "" }
      throw ConfigurationError(
        source: path, configuration: nil, setting: nil, reason: "\(refusal)\(hint)")
    }
  }

  /// The names of the configurations in a file, for listing.
  public static func names(in data: Data, source: String) throws(ConfigurationError) -> [String] {
    try ConfigurationEntry.read(data, source: source).map(\.name)
  }

  public static func parse(
    _ data: Data, source: String, name: String? = nil, sdk: SDKProfile? = nil
  ) throws(ConfigurationError) -> RegistrationConfiguration {
    let all = try ConfigurationEntry.read(data, source: source)
    return try build(choose(name, in: all, source: source), source: source, sdk: sdk)
  }

  /// The configuration `name` names; without a name, the file's only one.
  private static func choose(_ name: String?, in all: [ConfigurationEntry], source: String)
    throws(ConfigurationError) -> ConfigurationEntry
  {
    let known = all.map { "\"\($0.name)\"" }.joined(separator: ", ")
    guard let name else {
      if all.count == 1 { return all[0] }
      throw ConfigurationError(
        source: source, configuration: nil, setting: nil,
        reason: all.isEmpty
          ? "holds no configuration" : "the file has \(known): choose one with --config-name")
    }
    guard let entry = all.first(where: { $0.name == name }) else {
      throw ConfigurationError(
        source: source, configuration: name, setting: nil,
        reason: "no configuration has this name; the file has \(known)")
    }
    return entry
  }

  /// The near misses first (one that leaves a required setting unset fails here), then the
  /// builder's checks, each error naming the setting as the file spells it.
  private static func build(_ entry: ConfigurationEntry, source: String, sdk: SDKProfile?)
    throws(ConfigurationError) -> RegistrationConfiguration
  {
    let warnings = try entry.warnings()
    let builder = try settingsBuilder(for: entry, source: source, sdk: sdk)
    var config: RegistrationConfiguration
    do throws(ConfigurationError) {
      config = try builder.build(source: source)
    } catch {
      throw entry.respelled(error)
    }
    config.startupWarnings = warnings + config.startupWarnings
    return config
  }

  private static func settingsBuilder(
    for entry: ConfigurationEntry, source: String, sdk: SDKProfile?
  ) throws(ConfigurationError) -> RegistrationConfigurationBuilder {
    func string(_ key: String) throws(ConfigurationError) -> String? {
      try entry.string(key, source: source)
    }
    func flag(_ key: String) throws(ConfigurationError) -> Bool? {
      try entry.flag(key, source: source)
    }
    var builder = RegistrationConfigurationBuilder().setName(entry.name)
    builder.appID = try string("appid")
    builder.accessToken = try string("accesstoken")
    builder.serverURL = try string("marketing_cloud_server_url")
    if let sdk = try string("regscope_sdk") {
      guard let profile = SDKProfile(loose: sdk) else {
        throw entry.fail("regscope_sdk", SDKProfile.refusal(loose: sdk), source: source)
      }
      builder.profile = profile
    }
    if let sdk { builder.profile = sdk }
    // The iOS SDK's file says nothing of the platform: the SDK's own platform, unless told.
    if entry.settings["platform"] == nil, let platform = builder.profile.platform {
      builder.platform = platform
    }
    builder.delayRegistrationUntilContactKeyIsSet =
      try flag("delayregistrationuntilcontactkeyisset") ?? false
    builder.debugBuild = try flag("debug") ?? false
    if let platformText = try string("platform") {
      guard let platform = Platform(loose: platformText) else {
        throw entry.fail(
          "platform", "must be \"iOS\" or \"Android\"; got \"\(platformText)\"", source: source)
      }
      builder.platform = platform
    }
    if let platform = builder.profile.platform, platform != builder.platform {
      throw ConfigurationError(
        source: source, configuration: entry.name, setting: nil,
        reason:
          "the \(builder.profile.spelled) SDK runs on \(platform.rawValue), but this configuration is an \(builder.platform.rawValue) app's: choose the other configuration, or --sdk for its platform"
      )
    }
    // The wrappers' files name the app per platform; RegScope's own key wins over them.
    if let bundle = try string("regscope_bundle_id") ?? entry.bundleIDs[builder.platform] {
      builder.appBundleID = bundle
    }
    if let timeout = entry.settings["requesttimeout"] {
      guard let seconds = timeout as? Double else {
        throw entry.fail("requesttimeout", "must be a number", source: source)
      }
      builder.requestTimeout = seconds
    }
    return builder
  }
}
