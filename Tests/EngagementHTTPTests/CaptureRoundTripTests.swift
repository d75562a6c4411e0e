import Clocks
import EngagementHTTP
import Foundation
import HAR
import RegistrationCore
import RegistrationEngine
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// What the live watch judged, and what `regctl judge` finds in the capture the front wrote of
/// the same traffic (its HAR view and its `--har` file), must agree registration by registration.
@Suite(
  "a capture of live traffic judges as the live watch did", .serialized, .timeLimit(.minutes(10)))
struct CaptureRoundTripTests {
  typealias Rig = WatchOverHTTPTests.Rig

  /// Each registration's findings, by code and severity, from the live timeline's JSON.
  static func liveFindings(_ rig: Rig, device: String) async throws -> [[String]] {
    let (status, _, body) = try await rig.raw(
      "GET", "/api/devices/\(device)/registrations", headers: [])
    #expect(status == 200)
    let timeline = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
    return (timeline?["registrations"] as? [[String: Any]] ?? []).map { entry in
      (entry["findings"] as? [[String: Any]] ?? []).map {
        "\($0["code"] ?? "")/\($0["severity"] ?? "")"
      }
    }
  }

  static func judgedFindings(_ judge: CaptureJudge, device: String) -> [[String]] {
    judge.watch.devices[device]?.registrations.map { entry in
      entry.findings.map { "\($0.code)/\($0.severity.rawValue)" }
    } ?? []
  }

  @Test("an Android engine through a 503 and a 429, and a client that hammers: the same findings")
  func sameFindings() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "roundtrip-\(UUID().uuidString).har"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try HARFile(path: path)
    let rig = try await Rig(capture: { file.record($0) })
    // A correct SDK through a 503 and a 429 with Retry-After.
    let engine = try rig.engine(.android, platform: .android, device: "GOOD")
    try await engine.launch()
    try await engine.advance(rig.clock, to: Instant(1))
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 1))
    _ = try await engine.apply(.addTag("sports"))
    try await engine.advance(rig.clock, to: Instant(200))
    await rig.server.setFault(ServerFault(kind: .status(429, retryAfter: 120), remaining: 1))
    _ = try await engine.apply(.addTag("news"))
    try await engine.advance(rig.clock, to: Instant(600))
    await engine.shutDown()
    // A client that ignores the rules: the same body every 10 s, the token never sent back.
    for second in [700.0, 710, 720] {
      rig.clock.advance(to: Instant(second))
      _ = try await rig.raw(
        "POST", "/device/v1/registration", headers: Rig.android,
        body: sdkBody(device: "BAD", app: watchAppID, tags: ["ALL", "hammer"]))
    }
    var liveByDevice: [String: [[String]]] = [:]
    for device in ["GOOD", "BAD"] {
      let live = try await Self.liveFindings(rig, device: device)
      liveByDevice[device] = live
      #expect(live.count >= 3, "\(device): \(live)")
      // The API's HAR view of the device.
      let (status, headers, har) = try await rig.raw(
        "GET", "/api/devices/\(device)/har", headers: [])
      #expect(status == 200 && headers["content-type"] == "application/har+json")
      #expect(!har.contains(watchToken))
      let fromView = try HARReader.judge(documents: [("view", Data(har.utf8))])
      #expect(Self.judgedFindings(fromView, device: device) == live, "\(device) (API view)")
    }
    // The --har file, written when the front stops.
    await rig.stop()
    file.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains(watchToken))
    let fromFile = try HARReader.judge([path])
    #expect(fromFile.devices.count == 2)
    for device in ["GOOD", "BAD"] {
      #expect(Self.judgedFindings(fromFile, device: device) == liveByDevice[device], "\(device)")
    }
    // The hammering client broke the rules; the engine kept to them.
    #expect(liveByDevice["BAD"]?.flatMap { $0 }.contains { $0.hasSuffix("/violation") } == true)
    #expect(liveByDevice["GOOD"]?.flatMap { $0 }.contains { $0.hasSuffix("/violation") } == false)
  }
}
