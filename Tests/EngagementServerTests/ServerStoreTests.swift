import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

@Suite("the server's store")
struct ServerStoreTests {
  @Test("a file store keeps contacts, devices, registrations and demographics across a restart")
  func restart() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regscope-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("server.sqlite").path
    let clock = VirtualClock()
    let settings = ServerSettings(appID: appID, accessToken: token, processingDelay: 60)
    let seed = Array(
      try Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .deletingLastPathComponent().appendingPathComponent("Fixtures/seed000-registration.json"))
    )
    do {
      let server = try LocalEngagementServer(
        settings: settings, store: ServerStore.open(at: path), clock: clock)
      try await server.defineAttributes(["CODE"])
      _ = await server.receive(authorization: "Bearer \(token)", body: seed)
      _ = await server.receive(authorization: "Bearer \(token)", body: body(device: "LATER"))
      clock.advance(to: Instant(60))
      await server.processDue()
      _ = await server.receive(authorization: "Bearer \(token)", body: body(device: "WAITING"))
      await server.flush()
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o600)
    let reopened = try LocalEngagementServer(
      settings: settings, store: ServerStore.open(at: path), clock: clock)
    let snapshot = await reopened.snapshot()
    #expect(snapshot.stats.received == 3)
    #expect(snapshot.stats.processed == 2)
    #expect(snapshot.stats.pending == 1)
    #expect(snapshot.settings.definedAttributes == ["CODE"])
    #expect(
      snapshot.devices.map(\.deviceID).sorted() == [
        "1EB8C21D-CA72-41AC-930D-CEC9A311D699", "LATER",
      ])
    #expect(
      snapshot.registrations.first?.payload.etAppId == "\t995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47")
    // The one still waiting is processed after the restart, at its time.
    #expect(await reopened.nextDeadline == Instant(120))
    clock.advance(to: Instant(120))
    await reopened.processDue()
    #expect(await reopened.stats().processed == 3)
  }

  @Test(
    "the group commit writes once 256 changes have gathered, not one by one",
    .timeLimit(.minutes(10)))
  func groupCommit() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regscope-commit-\(UUID().uuidString).sqlite"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // A window far longer than the test: only the batch can write.
    let server = try LocalEngagementServer(
      settings: ServerSettings(appID: appID, accessToken: token, processingDelay: 60),
      store: ServerStore.open(at: path), clock: VirtualClock(), commitWindow: .seconds(3_600))
    let reader = try ServerStore.open(at: path)
    let batch = LocalEngagementServer.commitBatch
    for index in 0..<(batch - 1) {
      _ = await server.receive(authorization: "Bearer \(token)", body: body(device: "D\(index)"))
    }
    #expect(try reader.load(window: 1_000).received == 0)
    let generation = server.changes.signal(.stored).generation
    _ = await server.receive(authorization: "Bearer \(token)", body: body(device: "LAST"))
    // Written by a task of its own, at once: the window (an hour) has nothing to do with it.
    await server.changes.signal(.stored).wait(after: generation)
    #expect(try reader.load(window: 1_000).received == batch)
  }

  @Test("a damaged server database is reported by path and left untouched")
  func damaged() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regscope-server-\(UUID().uuidString).sqlite"
    ).path
    let garbage = Data(repeating: 0xAB, count: 8192)
    try garbage.write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try ServerStore.open(at: path)
    } throws: { error in
      "\(error)".contains(path)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
  }
}
