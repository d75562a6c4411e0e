import Clocks
import EngagementCore
import EngagementHTTP
import Foundation
import RegistrationCore
import Synchronization
import TestSupport
import Testing

/// The watch at first contact, as an app's developer meets it: a refused first try, then the
/// right token; early runs; and a capture of the same traffic judged as the live watch judged.
@Suite("the watch from the first request")
struct FirstContactTests {
  typealias Rig = WatchOverHTTPTests.Rig

  struct Request {
    var at: Double
    var token: String = watchToken
    var agent: String = androidAgent
    var body: String
    var sendsSubscriberToken = true
  }

  /// Sends `requests` in order on the rig's virtual clock, each carrying the subscriber token
  /// the device was last handed (as both SDKs do) unless told not to; returns the statuses.
  static func play(_ requests: [Request], on rig: Rig) async throws -> [Int] {
    var handed: [String: String] = [:]
    var statuses: [Int] = []
    for request in requests {
      rig.clock.advance(to: Instant(request.at))
      let device = try #require(
        (try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])?[
          "deviceID"] as? String)
      var headers: [(String, String)] = [
        ("Content-Type", "application/json"), ("User-Agent", request.agent),
        ("Authorization", "Bearer \(request.token)"),
      ]
      if request.sendsSubscriberToken, let token = handed[device] {
        headers.append(("X-Subscriber-Token", token))
      }
      let (status, fields, _) = try await rig.raw(
        "POST", "/device/v1/registration", headers: headers, body: request.body)
      if let token = fields["x-subscriber-token"] { handed[device] = token }
      statuses.append(status)
    }
    return statuses
  }

  @Test("a wrong token first, then the right one: the token the app sends back counts as sent back")
  func refusedFirstTry() async throws {
    for sendsBack in [true, false] {
      let rig = try await Rig()
      let statuses = try await Self.play(
        [
          Request(
            at: 0, token: "wrong-token-000000000000", body: sdkBody(device: "NEW", app: watchAppID)),
          Request(at: 5, body: sdkBody(device: "NEW", app: watchAppID)),
          Request(
            at: 80, body: sdkBody(device: "NEW", app: watchAppID, tags: ["ALL", "later"]),
            sendsSubscriberToken: sendsBack),
        ], on: rig)
      #expect(statuses == [401, 201, 201])
      let client = try #require(try await rig.device("NEW")["client"] as? [String: Any])
      #expect(client["subscriberTokenReturned"] as? Bool == sendsBack, "sends back: \(sendsBack)")
      #expect(client["refused"] as? Int == 1)
      // The wrong token was the setup's, fixed since: nothing is held against the app.
      let severities = try #require(client["severities"] as? [String: Int])
      #expect(severities["warning"] == 0, "\(severities)")
      let live = try #require(await rig.server.watchedDevice("NEW"))
      #expect(!FindingGate(threshold: .warning).fails(live))
      // The timeline still shows the refused try, as a note that says so.
      let first = try #require(live.registrations.first?.findings.first)
      #expect(live.registrations.first?.refused == true)
      #expect(first.severity == .note && first.message.hasSuffix("accepted since)"))
      await rig.stop()
    }
  }

  @Test("a refused try is still counted against the app while nothing has been accepted since")
  func refusedUntilFixed() async throws {
    let rig = try await Rig()
    _ = try await Self.play(
      [
        Request(
          at: 0, token: "wrong-token-000000000000", body: sdkBody(device: "W", app: watchAppID)),
        Request(
          at: 5, token: "wrong-token-000000000000", body: sdkBody(device: "W", app: watchAppID)),
      ], on: rig)
    let live = try #require(await rig.server.watchedDevice("W"))
    #expect(live.severityCounts[.warning] == 2)
    #expect(FindingGate(threshold: .warning).fails(live))
    await rig.stop()
  }

  @Test("before any 2xx handed a token out, no request is held to sending it back")
  func notYetDue() async throws {
    let rig = try await Rig()
    _ = try await Self.play(
      [
        Request(
          at: 0, token: "wrong-token-000000000000", body: sdkBody(device: "N2", app: watchAppID))
      ],
      on: rig)
    let client = try #require(try await rig.device("N2")["client"] as? [String: Any])
    #expect(client["subscriberTokenReturned"] == nil || client["subscriberTokenReturned"] is NSNull)
    await rig.stop()
  }

  static let sequences: [(String, [Request])] = [
    (
      "a refused first try",
      [
        Request(
          at: 0, token: "wrong-token-000000000000", body: sdkBody(device: "A", app: watchAppID)),
        Request(at: 3, body: sdkBody(device: "A", app: watchAppID)),
        Request(at: 70, body: sdkBody(device: "A", app: watchAppID, tags: ["ALL", "x"])),
      ]
    ),
    (
      "an Android run of early changes",
      [0.0, 2, 4, 6].enumerated().map { index, at in
        Request(at: at, body: sdkBody(device: "B", app: watchAppID, tags: ["ALL", "t\(index)"]))
      } + [Request(at: 8, body: sdkBody(device: "B", app: watchAppID, tags: ["ALL", "t3"]))]
    ),
    (
      "an iOS run of early changes",
      [0.0, 2, 4, 6].enumerated().map { index, at in
        Request(
          at: at, agent: iosAgent,
          body: sdkBody(device: "C", platform: "iOS", app: watchAppID, tags: ["ALL", "t\(index)"]))
      }
    ),
    (
      "a contact key set as an attribute and a changed key",
      [
        Request(at: 0, body: sdkBody(device: "D", app: watchAppID, key: "alice")),
        Request(
          at: 100,
          body: sdkBody(device: "D", app: watchAppID, key: "bob", attributes: ["contactKey": "bob"])
        ),
      ]
    ),
  ]

  @Test("the --har capture of the same traffic judges as the live watch did", arguments: 0..<4)
  func captureAgrees(_ index: Int) async throws {
    let (name, requests) = Self.sequences[index]
    let (stream, continuation) = AsyncStream.makeStream(of: CapturedExchange.self)
    let rig = try await Rig(capture: { continuation.yield($0) })
    _ = try await Self.play(requests, on: rig)
    var exchanges: [CapturedExchange] = []
    for await exchange in stream {
      exchanges.append(exchange)
      if exchanges.count == requests.count { break }
    }
    var judge = CaptureJudge()
    for exchange in exchanges.sorted(by: { $0.startedAt < $1.startedAt }) { judge.add(exchange) }
    for captured in judge.devices {
      let live = try #require(await rig.server.watchedDevice(captured.deviceID), "\(name)")
      let liveFindings = live.registrations.map { $0.findings.map { "\($0.code)/\($0.severity)" } }
      let capturedFindings = captured.registrations.map {
        $0.findings.map { "\($0.code)/\($0.severity)" }
      }
      #expect(capturedFindings == liveFindings, "\(name)")
      #expect(captured.refusedCount == live.refusedCount, "\(name)")
      #expect(captured.tokenReturned == live.tokenReturned, "\(name)")
      #expect(captured.severityCounts == live.severityCounts, "\(name)")
    }
    #expect(
      judge.devices.count
        == Set(
          requests.map { $0.body }.compactMap { body in
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?[
              "deviceID"] as? String
          }
        ).count, "\(name)")
    await rig.stop()
  }
}
