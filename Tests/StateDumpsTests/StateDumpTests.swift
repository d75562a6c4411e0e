import Foundation
import RegistrationCore
import Session
import SessionValues
import Testing

@testable import StateDumps

/// The shipped SDKs' state dumps, both ways (SDK-FACTS.md, the SDK state dump).
@Suite("SDK state dumps: written as the SDKs write them, read from real apps")
struct StateDumpTests {
  static func fixture(_ name: String) throws -> Data {
    try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)"))
  }

  /// A state with one acknowledged send and then edits: a key, an attribute, a tag.
  static func state(_ profile: SDKProfile) -> RegistrationState {
    let platform = profile.platform ?? .iOS
    let settings = MachineSettings(platform: platform, etAppId: "app-1", profile: profile)
    var (machine, _) = RegistrationMachine.firstLaunch(
      settings: settings, deviceID: "DEVICE-1",
      environment: .demo(platform, profile: profile), now: Instant(1_795_000_000))
    let send = machine.tick(now: Instant(1_795_000_000)).send
    if let send {
      _ = machine.sendFinished(
        sendID: send.id, result: .answered(status: 201, retryAfter: nil),
        now: Instant(1_795_000_000))
    }
    _ = machine.apply(.setContactKey("user-7"), now: Instant(1_795_000_010))
    _ = machine.apply(.setAttribute(key: "CODE", value: "FREE99"), now: Instant(1_795_000_010))
    _ = machine.apply(.addTag("sports"), now: Instant(1_795_000_010))
    return machine.state
  }

  @Test("android and ios dumps written from the store read back to the same registrations")
  func roundTrip() throws {
    for (format, profile) in [
      (SDKStateDump.Format.android, SDKProfile.android), (.unified, .android), (.ios, .ios),
    ] {
      let state = Self.state(profile)
      let text = SDKStateDump.write(state, format: format)
      #expect(!text.contains("token"), "the access token is never in a dump")
      let reading = try StateDumpImport.read(Data(text.utf8), source: "dump")
      #expect(reading.shape.rawValue == format.rawValue)
      #expect(reading.current.subscriberKey == "user-7")
      #expect(reading.lastSent?.subscriberKey == nil)
      #expect(reading.lastSentAt == Instant(1_795_000_000))
      #expect(
        reading.pending == [
          "contact key: (none) -> \"user-7\"", "attribute CODE: (none) -> \"FREE99\"",
          "tag + sports",
        ])
      #expect(reading.findings.map(\.rule) == ["R8.2"])
    }
    let android = SDKStateDump.write(Self.state(.android), format: .android)
    #expect(android.contains(#""last_sent_timestamp" : "2026-11-18T"#))
    #expect(android.contains(#""current_registration""#))
  }

  @Test("a hand-written unified Android dump: pending edits, the alarm, and what is wrong")
  func androidDump() throws {
    let reading = try StateDumpImport.read(
      try Self.fixture("android-sdk-state.json"), source: "android-sdk-state.json")
    #expect(reading.shape == .unified)
    #expect(
      reading.pending == [
        "contact key: \"user-1001\" -> \"test\"", "attribute FavoriteTeam: \"Tigers\" -> \"Lions\"",
        "attribute addressId: (none) -> \"7\"", "tag + news",
      ])
    #expect(reading.nextDue == "the retry alarm fires at 2026-11-20T08:02:00.000Z")
    #expect(
      Set(reading.findings.map(\.code)) == [.reservedAttribute, .genericContactKey, .orphanRisk])
    #expect(reading.findings.first { $0.code == .orphanRisk }?.rule == "R8.3")
  }

  @Test("a dump larger than 4 MB, or no regular file, is refused before it is read")
  func sizeCap() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "huge-dump-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(count: StateDumpImport.largestDump + 1).write(to: URL(fileURLWithPath: path))
    #expect {
      try StateDumpImport.load(path: path)
    } throws: { "\($0)".contains("an SDK state dump is a few kilobytes") }
    #expect {
      try StateDumpImport.load(path: "/dev/zero")
    } throws: { "\($0)".contains("is not a regular file") }
  }

  @Test("a flat unified 1.0.x dump; Android without last_registration_sent has nothing pending")
  func flatUnifiedNothingPending() throws {
    let current =
      #"{"deviceID":"D1","etAppId":"app","platform":"Android","tags":["ALL","Android"]}"#
    let dump = Data(
      #"{"sfmcSDKVersion": "1.0.6", "PUSH": {"RegistrationManager": {"current_registration": \#(current), "last_sent_timestamp": "2026-11-18T10:00:00.000Z"}}}"#
        .utf8)
    let reading = try StateDumpImport.read(dump, source: "flat.json")
    #expect(reading.shape == .unified)
    #expect(reading.pending.isEmpty)
    #expect(reading.nextDue == "nothing is due: the current registration was sent")
    #expect(!reading.pending.contains { $0.contains("nothing was ever sent") })
    // iOS keeps "Last Successfully Sent Registration" always: absent there means never sent.
    let ios = Data(
      #"{"Registration Details": {"Current Registration": \#(current)}}"#.utf8)
    #expect(
      try StateDumpImport.read(ios, source: "ios.json").pending.first?.contains(
        "nothing was ever sent") == true)
  }

  @Test("a hand-written iOS dump: HWID is reserved on iOS, a key after an anonymous send")
  func iosDump() throws {
    let reading = try StateDumpImport.read(
      try Self.fixture("ios-sdk-state.json"), source: "ios-sdk-state.json")
    #expect(reading.shape == .ios)
    #expect(reading.pending.contains("attribute HWID: (none) -> \"x\""))
    let codes = reading.findings.map(\.code)
    #expect(codes.contains(.missingRequired) && codes.contains(.reservedAttribute))
    #expect(reading.findings.first { $0.code == .orphanRisk }?.rule == "R8.2")
    #expect(reading.nextDue.hasPrefix("at once if it is past 2026-11-21T09:31:00.000Z"))
  }

  @Test("broken JSON and a file that is no dump get errors that say where and what")
  func badInput() {
    #expect {
      try StateDumpImport.read(Data("{\n  \"RegistrationManager\": {,}\n}".utf8), source: "x.json")
    } throws: { "\($0)".contains("x.json") && "\($0)".contains("line 2") }
    #expect {
      try StateDumpImport.read(Data(#"{"hello": 1}"#.utf8), source: "y.json")
    } throws: {
      "\($0)".contains("is not an SDK state dump") && "\($0)".contains("Registration Details")
    }
    #expect {
      try StateDumpImport.read(
        Data(#"{"RegistrationManager": {"current_registration": "{nope"}}"#.utf8), source: "z.json")
    } throws: { "\($0)".contains("the current registration") }
    #expect {
      try StateDumpImport.read(Data(#"[1]"#.utf8), source: "w.json")
    } throws: { "\($0)".contains("expected a JSON object") }
    // A date no formatter can write is no date, not an empty one.
    for stamp in ["1e308", "-1e308", "99999999999999999999"] {
      let reading = try? StateDumpImport.read(
        Data(
          #"{"RegistrationManager": {"current_registration": {"deviceID": "D"}, "last_sent_timestamp": \#(stamp)}}"#
            .utf8), source: "v.json")
      #expect(reading != nil && reading?.lastSentAt == nil, "\(stamp)")
    }
  }
}

@Suite("a device imported from an SDK state dump, read-only")
struct ImportedDeviceTests {
  @Test("the dump's record, pending differences and alarm; every edit is refused, nothing sent")
  func readOnly() async throws {
    let data = try StateDumpTests.fixture("android-sdk-state.json")
    let device = ImportedDevice(
      try StateDumpImport.read(data, source: "android-sdk-state.json"),
      source: "android-sdk-state.json")
    #expect(device.profile == .android)
    #expect(device.state.record.contactKey == "test")
    #expect(device.state.record.tags == ["news"])
    #expect(device.state.record.device.environment.timeZone == -18_000)
    #expect(
      device.state.pending.map(\.target.description) == [
        "contact key", "attribute FavoriteTeam", "attribute addressId", "tag news",
      ])
    guard case .imported(let simulation) = try await SessionFactory().open(.imported(device)) else {
      Issue.record("an imported job opens an imported session")
      return
    }
    _ = try await simulation.execute(.launch)
    let snapshot = try #require(await simulation.snapshot().device)
    #expect(snapshot.state.record.attributes["FavoriteTeam"] == "Lions")
    #expect(
      snapshot.state.scheduler.retry?.nextAttemptAt == device.state.scheduler.retry?.nextAttemptAt)
    #expect(snapshot.settings.profile == .android)
    await #expect(throws: SessionError.self) {
      try await simulation.execute(.edit(.addTag("x")))
    }
    #expect(simulation.setRate(10) == false)
    await simulation.stop()
  }
}
