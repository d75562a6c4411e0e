import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import InspectorUI

/// The receiver's Timeline pane with the tenant's read-back (#46): when it is due, then its
/// headline in red when the registration did not arrive, in green when it is held as sent.
@Suite("the read-back in the receiver's timeline")
struct ReadBackTimelineTests {
  static func text(_ line: Line) -> String { line.map(\.0).joined() }

  @Test("due, then not arrived in red, then held as sent in green; the app's text escaped")
  func rows() throws {
    var watch = DeviceWatch(makeToken: seededTokens(1))
    let body = sdkBody(device: "PIXEL-T", key: "user-1", attributes: ["Plan": #"gold\u001B[2J"#])
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
    _ = watch.record(
      ReceivedRegistration(
        deviceID: "PIXEL-T", payload: payload, body: Array(body.utf8),
        facts: RequestFacts(userAgent: androidAgent), at: Instant(0), status: 201,
        retryAfter: nil,
        server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    watch.markReadBackDue(Instant(900), of: "PIXEL-T")
    var model = receiverModel(watch, now: 10)
    var lines = ReceiverPanes.timeline(model, watch.devices["PIXEL-T"]).map(Self.text)
    #expect(lines.contains("tenant asked whether it arrived in 14 min 50 s"), "\(lines)")
    let sent = ServerRegistration(
      id: 1, receivedAt: Instant(0), processAt: Instant(300), status: .processed, payload: payload)
    let missing = ReadBack.compare(
      sent, holding: TenantHolding(contactKey: "user-1", address: nil), registrations: [sent],
      askedAt: Instant(900), window: 900, defined: ["FirstName"])
    watch.recordReadBack(missing, of: "PIXEL-T")
    model = receiverModel(watch, now: 901)
    let device = try #require(watch.devices["PIXEL-T"])
    let row = try #require(
      ReceiverPanes.timeline(model, device).first { Self.text($0).contains("tenant:") })
    #expect(Self.text(row).hasSuffix("tenant: #1 NOT ARRIVED under contact user-1 (S5: Plan)"))
    #expect(row.last?.1 == .error)
    #expect(device.readBackDue == nil, "the answer clears the countdown")
    let summary = ReceiverPanes.findingsSummary(device)
    #expect(summary.0 == "tenant: NOT ARRIVED" && summary.1 == .error, "the device list says it")
    let held = ReadBack.compare(
      sent,
      holding: TenantHolding(
        contactKey: "user-1",
        address: TenantHolding.Address(values: ["Plan": "gold\u{1B}[2J"])),
      registrations: [sent], askedAt: Instant(960), window: 900, defined: nil)
    watch.recordReadBack(held, of: "PIXEL-T")
    lines = ReceiverPanes.timeline(model, watch.devices["PIXEL-T"]).map(Self.text)
    let last = try #require(
      ReceiverPanes.timeline(model, watch.devices["PIXEL-T"]).last {
        Self.text($0).contains("tenant:")
      })
    #expect(last.last?.1 == .success)
    #expect(!lines.joined().contains("\u{1B}"))
    #expect(held.summary.contains(#"\e[2J"#) == false, "an attribute held as sent is not quoted")
  }
}
