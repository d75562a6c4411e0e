import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues

/// How a simulated run is set up: the app's configuration, the device, the server, the network.
public struct SessionSetup: Sendable {
  /// A UUID and 24 characters: the demo passes the shipped SDKs' start-up checks.
  public var appID = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
  public var accessToken = "demo-access-token-012345"
  public var platform: Platform = .iOS
  /// Which SDK the device is (documented, ios, android).
  public var profile: SDKProfile = .documented
  public var delayRegistrationUntilContactKeyIsSet = false
  public var debugBuild = false
  public var requestTimeout: Double = 30
  public var environment: DeviceEnvironment? = nil
  /// Fixed in scenarios so runs are repeatable; nil makes a random UUID on first launch (R1.2).
  public var deviceID: String? = "5A1D0C3E-0000-4000-8000-00000000D001"
  public var processingDelay: Double = 300
  public var definedAttributes: Set<String>? = nil
  /// Seconds a send spends on the wire (virtual).
  public var networkLatency: Double = 0

  public init() {}

  /// Becomes `profile`: the platform its SDK runs on, and a demo device running that SDK's
  /// version unless the scenario gave one. A device of the other platform starts afresh.
  public mutating func use(_ profile: SDKProfile) {
    if let platform = profile.platform, platform != self.platform {
      self.platform = platform
      if environment != nil { environment = .demo(platform, profile: profile) }
    }
    if var environment, environment.sdkVersion == self.profile.sdkVersion {
      environment.sdkVersion = profile.sdkVersion
      self.environment = environment
    }
    self.profile = profile
  }

  /// The SDK configuration this setup gives a device whose server is at `serverURL`.
  func configuration(serverURL: String) throws -> RegistrationConfiguration {
    try RegistrationConfigurationBuilder()
      .setApplicationId(appID).setAccessToken(accessToken)
      .setMarketingCloudServerUrl(serverURL)
      .setDelayRegistrationUntilContactKeyIsSet(delayRegistrationUntilContactKeyIsSet)
      .setPlatform(platform).setDebugBuild(debugBuild)
      .setRequestTimeout(requestTimeout).setSDKProfile(profile).build()
  }
}
