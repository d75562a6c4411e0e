import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import Session
import SessionHTTP
import SessionValues
import Testing

/// One factory builds every job; each job answers for itself.
@Suite("the session factory and its jobs", .timeLimit(.minutes(10)))
struct SessionFactoryTests {
  static func receiverSetup() throws -> ReceiverSetup {
    ReceiverSetup(
      settings: ServerSettings(appID: "app", accessToken: "token-0123456789"),
      store: try ServerStore.inMemory(), options: ReceiverOptions(port: 0))
  }

  @Test("a receiver listens on loopback, takes faults, refuses device commands, pushes its case")
  func receiver() async throws {
    let session = try await SessionFactory(network: HTTPNetwork()).open(
      .receiver(try Self.receiverSetup())
    ).session
    #expect(session.destination.hasPrefix("receiving on http://127.0.0.1:"))
    let fault = await session.run(
      .server(.fail(status: 503, times: 1, retryAfter: nil, duration: nil)))
    #expect(!fault.isError && fault.text.contains("503"))
    let edit = await session.run(.edit(.addTag("x")))
    #expect(edit.isError && edit.text.contains("receives real apps"))
    #expect(session.setRate(10) == false)
    #expect(await session.jumpToNextDeadline() == nil)
    guard case .receiver(let view) = await session.snapshot() else {
      Issue.record("a receiver pushes a receiver snapshot")
      return
    }
    #expect(view.watched.isEmpty && view.server?.fault != nil)
    await session.stop()
  }

  @Test("every tool's receiver has one default store: a private temporary database, not memory")
  func receiverDefaults() async throws {
    let opened = try await SessionFactory(network: HTTPNetwork()).open(
      .receiver(
        ReceiverSetup(
          settings: ServerSettings(appID: "app", accessToken: "token-0123456789"),
          options: ReceiverOptions(port: 0))))
    let receiver = try #require(opened.receiver)
    #expect(receiver.server.storeLocation == "(temporary)")
    #expect(opened.device == nil)
    await receiver.stop()
  }

  @Test("an imported device is read-only: launch shows it, every change is refused")
  func imported() async throws {
    let state = RegistrationState(
      record: ContactRecord(
        tags: ["news"],
        device: DeviceFields(
          deviceID: "D", registrationId: "", etAppId: "app", platform: .android,
          environment: .demo(.android))))
    let session = try await SessionFactory().open(
      .imported(ImportedDevice(source: "dump.json", profile: .android, state: state))
    ).session
    #expect(!(await session.run(.launch)).isError)
    let refused = await session.run(.edit(.addTag("x")))
    #expect(refused.isError && refused.text.contains("read-only"))
    #expect(await session.snapshot().device?.state.record.tags == ["news"])
    await session.stop()
  }

  @Test("a device session's jobs: in process with no network; loopback needs one")
  func device() async throws {
    let factory = SessionFactory()
    let session = try #require(
      try await factory.open(.device(SessionSetup(), try .virtual())).device)
    #expect(session.destination == "the local server (in process)")
    guard case .device = await session.snapshot() else {
      Issue.record("a device session pushes a device snapshot")
      return
    }
    await session.stop()
    await #expect(throws: SessionError.self) {
      _ = try await factory.open(.device(SessionSetup(), try .virtual(route: .loopback)))
    }
  }

  @Test("--server with --sdk android@8.2.1 and no --config: an Android device, not iOS's body")
  func serverTakesTheSDKsPlatform() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-factory-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let profile = try #require(SDKProfile(loose: "android@8.2.1"))
    let opened = try await SessionFactory(network: HTTPNetwork()).open(
      .persistent(
        PersistentDevice(
          folder: folder, config: nil, configName: nil, server: "http://127.0.0.1:9", speed: 1,
          resetState: false, sdk: profile)))
    let session = try #require(opened.device)
    #expect(session.setup.platform == .android)
    #expect(session.configuration.platform == .android)
    #expect(session.configuration.profile == profile)
    await session.stop()
  }
}
