import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues

/// The one place sessions are built: `regscope`, `regctl shell`, `run`, `serve` and `qa`
/// describe the job they want (`Job`) and `open` builds it with the network the face gives
/// (SessionHTTP's, or none for a run that never leaves the process), with one set of defaults
/// for each job.
public struct SessionFactory: Sendable {
  /// The jobs there are. Each case carries only what its job uses, so a combination that makes
  /// no sense (a receiver with a remote endpoint, an imported device with a clock rate) cannot
  /// be described.
  public enum Job: Sendable {
    /// A simulated device, its place given in full (scenarios, demos, tests).
    case device(SessionSetup, SessionPlace)
    /// The simulated device the shell and the inspector keep under a state folder.
    case persistent(PersistentDevice)
    /// Real apps received (or relayed) and judged.
    case receiver(ReceiverSetup)
    /// A device read from a state dump, read-only.
    case imported(ImportedDevice)
    /// A judged capture (HAR), read-only.
    case capture(CaptureJudge, sources: [String])
  }

  public var network: (any SessionNetwork)?

  public init(network: (any SessionNetwork)? = nil) { self.network = network }

  public func open(_ job: Job, log: RunLog = RunLog()) async throws -> OpenedSession {
    switch job {
    case .device(let setup, let place): .device(try await device(setup, place: place, log: log))
    case .persistent(let persistent): .device(try await device(persistent, log: log))
    case .receiver(let setup): .receiver(try await receiver(setup, log: log))
    case .imported(let device): .imported(ImportedSession(device, clock: ScaledClock(rate: 1)))
    case .capture(let judge, let sources): .capture(CaptureSession(judge, sources: sources))
    }
  }

  private func device(_ setup: SessionSetup, place: SessionPlace, log: RunLog) async throws
    -> DeviceSession
  {
    var place = place
    place.network = place.network ?? network
    return try await DeviceSession.start(setup, place: place, log: log)
  }

  private func device(_ persistent: PersistentDevice, log: RunLog) async throws -> DeviceSession {
    let (setup, place) = try persistent.resolved()
    return try await device(setup, place: place, log: log)
  }

  private func receiver(_ setup: ReceiverSetup, log: RunLog) async throws -> ReceiverSession {
    guard let network else { throw SessionError.noNetwork }
    return try await ReceiverSession(setup, network: network, log: log)
  }
}

/// A session as the factory opened it, of the kind its job asked for: a face that needs the
/// kind's own abilities (a device's clock, a receiver's server) reads them here, never by a
/// cast.
public enum OpenedSession: Sendable {
  case device(DeviceSession)
  case receiver(ReceiverSession)
  case imported(ImportedSession)
  case capture(CaptureSession)

  public var session: any Session {
    switch self {
    case .device(let session): session
    case .receiver(let session): session
    case .imported(let session): session
    case .capture(let session): session
    }
  }

  public var device: DeviceSession? {
    if case .device(let session) = self { return session }
    return nil
  }

  public var receiver: ReceiverSession? {
    if case .receiver(let session) = self { return session }
    return nil
  }
}

/// The persistent session `regctl shell` and `regscope` work on: the device and the local
/// server stored under `folder`, on a clock at `speed`, talking to the local server or to the
/// endpoint `config`/`server` name, as the SDK `sdk` names (else the configuration file's
/// `regscope_sdk`, else the documented one).
public struct PersistentDevice: Sendable {
  public var folder: String
  public var config: String?
  public var configName: String?
  public var server: String?
  public var speed: Double
  public var resetState: Bool
  public var sdk: SDKProfile?

  public init(
    folder: String, config: String?, configName: String?, server: String?, speed: Double,
    resetState: Bool, sdk: SDKProfile?
  ) {
    self.folder = folder
    self.config = config
    self.configName = configName
    self.server = server
    self.speed = speed
    self.resetState = resetState
    self.sdk = sdk
  }

  func resolved() throws -> (SessionSetup, SessionPlace) {
    let devicePath = StateDirectory.deviceStore(in: folder)
    let serverPath = StateDirectory.serverStore(in: folder)
    if resetState {
      for path in [devicePath, serverPath] where FileManager.default.fileExists(atPath: path) {
        let aside = try RegistrationStore.moveAside(path: path)
        FileHandle.standardError.write(Data("moved \(path) aside to \(aside)\n".utf8))
      }
    }
    var setup = SessionSetup()
    setup.deviceID = nil
    let remote = try remoteConfiguration(setup)
    setup.use(remote?.profile ?? sdk ?? .documented)
    if let remote {
      setup.platform = remote.platform
      setup.appID = remote.appID
    }
    let place = SessionPlace(
      clock: .scaled(ScaledClock(rate: speed), live: true),
      deviceStore: try RegistrationStore.open(at: devicePath),
      serverStore: try ServerStore.open(at: serverPath),
      route: remote.map { .remote($0) } ?? .inProcess)
    return (setup, place)
  }

  /// The endpoint `--config` and `--server` name, or nil for the local server.
  private func remoteConfiguration(_ setup: SessionSetup) throws -> RegistrationConfiguration? {
    var remote: RegistrationConfiguration?
    if let config {
      remote = try ConfigurationFile.load(path: config, name: configName, sdk: sdk)
    }
    guard let server else { return remote }
    var builder = RegistrationConfigurationBuilder()
    if let remote {
      builder = builder.setName(remote.name).setApplicationId(remote.appID)
        .setAccessToken(remote.accessToken.revealed).setPlatform(remote.platform)
        .setDelayRegistrationUntilContactKeyIsSet(remote.delayRegistrationUntilContactKeyIsSet)
        .setDebugBuild(remote.debugBuild).setSDKProfile(remote.profile)
        .setAppBundleID(remote.appBundleID)
    } else {
      // A shipped SDK runs on its own platform: --sdk android sends Android's body.
      builder = builder.setApplicationId(setup.appID).setAccessToken(setup.accessToken)
        .setSDKProfile(sdk ?? .documented).setPlatform(sdk?.platform ?? setup.platform)
    }
    var built = try builder.setMarketingCloudServerUrl(server).build(source: "--server")
    // What the file writes almost right still holds with another server.
    built.startupWarnings = (remote?.startupWarnings ?? []) + built.startupWarnings
    return built
  }
}
