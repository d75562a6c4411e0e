import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine

/// Opens the persistent session `regctl shell` and `regscope` work on: the device and the
/// local server stored under `folder`, on a clock at `speed`, talking to the local server or
/// to the endpoint `config`/`server` name, as the SDK `sdk` names (else the configuration
/// file's `regscope_sdk`, else the documented one).
public enum LiveSession {
  public static func open(
    folder: String, config: String?, configName: String?, server: String?, speed: Double,
    resetState: Bool, sdk: SDKProfile? = nil, network: any SessionNetwork,
    onEvent: @escaping @Sendable (RunEvent) -> Void
  ) async throws -> Session {
    let devicePath = StateDirectory.deviceStore(in: folder)
    let serverPath = StateDirectory.serverStore(in: folder)
    if resetState {
      for path in [devicePath, serverPath] where FileManager.default.fileExists(atPath: path) {
        let aside = try RegistrationStore.moveAside(path: path)
        FileHandle.standardError.write(Data("moved \(path) aside to \(aside)\n".utf8))
      }
    }
    var remote: RegistrationConfiguration?
    var setup = SessionSetup()
    setup.deviceID = nil
    if let config, let configName {
      remote = try ConfigurationFile.load(path: config, name: configName, sdk: sdk)
    }
    if let server {
      var builder = RegistrationConfigurationBuilder()
      if let remote {
        builder = builder.setName(remote.name).setApplicationId(remote.appID)
          .setAccessToken(remote.accessToken.revealed).setPlatform(remote.platform)
          .setDelayRegistrationUntilContactKeyIsSet(remote.delayRegistrationUntilContactKeyIsSet)
          .setDebugBuild(remote.debugBuild).setSDKProfile(remote.profile)
          .setAppBundleID(remote.appBundleID)
      } else {
        builder = builder.setApplicationId(setup.appID).setAccessToken(setup.accessToken)
          .setSDKProfile(sdk ?? .documented)
      }
      remote = try builder.setMarketingCloudServerUrl(server).build(source: "--server")
    }
    setup.use(remote?.profile ?? sdk ?? .documented)
    if let remote {
      setup.platform = remote.platform
      setup.appID = remote.appID
    }
    let place = SessionPlace(
      clock: ScaledClock(rate: speed), deviceStore: try RegistrationStore.open(at: devicePath),
      serverStore: try ServerStore.open(at: serverPath), remote: remote, live: true,
      network: network)
    return try await Session.start(
      setup, place: place, log: RunLog(limit: RunLog.liveLimit, listener: onEvent))
  }
}
