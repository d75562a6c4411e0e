import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// The browsers' exports, written from the HAR 1.2 specification and what each adds
/// (`_initiator`, `_priority`, `comment`, `pages`, sizes of -1), and RegScope's own.
@Suite("captures as the exporters write them")
struct HARShapesTests {
  /// Chrome's shape: pages, `_initiator`/`_priority`/`_resourceType`, timings with -1, a
  /// comment, a gzip'd answer already inflated, the token sent back.
  static func chrome() -> Data {
    let ios = sdkBody(device: "IOS-1", platform: "iOS", tags: ["ALL", "IOS"])
    let extra =
      #","_initiator":{"type":"script"},"_priority":"High","_resourceType":"fetch","comment":"","connection":"443","serverIPAddress":"10.0.0.1""#
    return har(
      [
        entry(
          "2026-11-22T10:00:00.000-08:00", body: ios, requestHeaders: [("User-Agent", iosAgent)],
          responseHeaders: [
            ("X-Subscriber-Token", "tenant-token-1"), ("Content-Encoding", "gzip"),
          ],
          extra: extra),
        entry(
          "2026-11-22T10:00:05.000-08:00", body: ios, status: 503,
          requestHeaders: [("User-Agent", iosAgent), ("X-Subscriber-Token", "tenant-token-1")],
          extra: extra),
        entry(
          "2026-11-22T10:00:06.000-08:00", body: ios,
          requestHeaders: [("User-Agent", iosAgent), ("X-Subscriber-Token", "tenant-token-1")],
          extra: extra),
      ],
      pages:
        #"[{"startedDateTime":"2026-11-22T10:00:00.000-08:00","id":"page_1","title":"app","pageTimings":{"onContentLoad":-1,"onLoad":-1}}]"#
    )
  }

  @Test("a Chrome-shaped capture: an iOS app that retried a 503 after 1 s draws a violation")
  func chromeShape() throws {
    let judge = try HARReader.judge(documents: [("chrome.har", Self.chrome())])
    let device = try #require(judge.devices.first)
    #expect(device.identity.sdk == .ios)
    #expect(device.registrations.map(\.status) == [201, 503, 201])
    #expect(device.tokenReturned == true)
    let last = try #require(device.registrations.last)
    #expect(last.findings.contains { $0.severity == .violation }, "\(last.findings)")
    #expect(judge.worstSeverity == .violation)
  }

  @Test("what RegScope writes reads back to the same judgment, tokens masked")
  func roundTrip() throws {
    let original = try HARReader.judge(documents: [("chrome.har", Self.chrome())])
    // The same exchanges as RegScope's export writes them.
    var exchanges: [CapturedExchange] = []
    Self.chrome().withUnsafeBytes { bytes in
      try? HARScanner.scan(bytes) { range in
        guard let object = HAREntry.object(UnsafeRawBufferPointer(rebasing: bytes[range])),
          let time = HAREntry.startTime(object)
        else { return }
        exchanges.append(HAREntry.exchange(object, startedAt: time))
      }
    }
    let written = HARDocument.encode(exchanges)
    let text = String(decoding: written, as: UTF8.self)
    #expect(!text.contains("tenant-token-1"))
    let again = try HARReader.judge(documents: [("export.har", written)])
    let findings = { (judge: CaptureJudge) in
      judge.devices.flatMap { $0.registrations.map { $0.findings.map(\.code) } }
    }
    #expect(findings(again) == findings(original))
    #expect(again.devices.first?.tokenReturned == original.devices.first?.tokenReturned)
    #expect(again.devices.map(\.registrationCount) == original.devices.map(\.registrationCount))
  }

  @Test("Firefox's and Charles's shapes: a response with status 0 is no answer")
  func noAnswer() throws {
    let body = sdkBody(device: "D1")
    let judge = try HARReader.judge(documents: [
      (
        "firefox.har",
        har([
          entry("2026-11-22T10:00:00.000+00:00", body: body),
          entry(
            "2026-11-22T10:01:10.000+00:00", body: body, status: 0,
            extra: #","_error":"net::ERR_CONNECTION_RESET""#),
        ])
      )
    ])
    #expect(judge.devices.first?.registrations.map(\.status) == [201, nil])
  }

  @Test("masked tokens keep a fingerprint: equal tokens mask equal, different ones differ")
  func fingerprints() {
    #expect(
      TokenText.fingerprinted("rs-00aa11bb22cc33dd")
        == TokenText.fingerprinted("rs-00aa11bb22cc33dd"))
    #expect(
      TokenText.fingerprinted("rs-00aa11bb22cc33dd")
        != TokenText.fingerprinted("rs-00aa11bb22cc33de"))
    #expect(!TokenText.fingerprinted("rs-00aa11bb22cc33dd").contains("22cc33dd"))
    let masked = HARDocument.masked([
      HeaderField("Authorization", "Bearer secret-access-token-123"),
      HeaderField("x-subscriber-token", "rs-00aa11bb22cc33dd"), HeaderField("User-Agent", "ua"),
    ])
    #expect(masked[0].value.hasPrefix("Bearer secr…") && !masked[0].value.contains("token-123"))
    #expect(!masked[1].value.contains("22cc33dd") && masked[2].value == "ua")
  }
}
