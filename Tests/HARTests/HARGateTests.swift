import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// Captures that could fool a CI gate: entries that cannot be read, and more devices than the
/// live watch keeps.
@Suite("captures a gate cannot be fooled by")
struct HARGateTests {
  static let violating = sdkBody(device: "BAD", tags: ["ALL"], attributes: ["contactKey": "x"])

  @Test(
    "an entry the scanner finds but JSON cannot read is named by index and fails the read",
    arguments: [#"\ud800"#, "1e400", String(repeating: "9", count: 400)])
  func unreadable(_ poison: String) throws {
    let bad = entry("2026-11-22T10:00:01Z", body: "x", extra: #","_x":"\#(poison)""#)
      .replacingOccurrences(
        of: #""_x":"\#(poison)""#,
        with: #""_x":\#(poison.hasPrefix("\\") ? "\"\(poison)\"" : poison)"#)
    let data = har([entry("2026-11-22T10:00:00Z", body: Self.violating), bad])
    #expect {
      _ = try HARReader.judge(documents: [("c.har", data)])
    } throws: { error in
      "\(error)".contains("c.har: entry 1 (byte") && "\(error)".contains("--skip-unreadable")
    }
    let skipped = try HARReader.judge(documents: [("c.har", data)], skipUnreadable: true)
    #expect(skipped.counts.unreadable.count == 1)
    #expect(skipped.worstSeverity == .violation)
  }

  @Test(
    "the same capture given twice, or two that overlap, is judged once: no false violation")
  func copiesAcrossFiles() throws {
    let first = entry("2026-11-22T10:00:00Z", body: sdkBody(device: "D1", tags: ["a"]))
    let second = entry("2026-11-22T10:02:00Z", body: sdkBody(device: "D1", tags: ["a", "b"]))
    let third = entry("2026-11-22T10:04:00Z", body: sdkBody(device: "D1", tags: ["c"]))
    let once = try HARReader.judge(documents: [("a.har", har([first, second]))])
    let twice = try HARReader.judge(
      documents: [("a.har", har([first, second])), ("b.har", har([first, second]))])
    #expect(twice.counts.registrations == once.counts.registrations)
    #expect(twice.counts.duplicates == 2)
    #expect(twice.devices.flatMap(\.registrations).flatMap(\.findings).isEmpty)
    // Two exports that overlap: the shared entry once, the rest in time order.
    let overlapping = try HARReader.judge(
      documents: [("a.har", har([first, second])), ("b.har", har([second, third]))])
    #expect(overlapping.counts.registrations == 3 && overlapping.counts.duplicates == 1)
    // A file that holds an entry twice, beside one that holds it once: twice it is.
    let once1 = try HARReader.judge(
      documents: [("a.har", har([first])), ("b.har", har([first, first]))])
    #expect(once1.counts.registrations == 2 && once1.counts.duplicates == 1)
    // Devices first seen at the same instant come out by id, the same every time.
    let same = (0..<6).map { entry("2026-11-22T10:00:00Z", body: sdkBody(device: "D\($0)")) }
    let ordered = try HARReader.judge(documents: [("s.har", har(same.reversed()))])
    #expect(ordered.devices.map(\.deviceID) == (0..<6).map { "D\($0)" })
    // Within one file, two identical posts are the app's: both are judged.
    let doubled = try HARReader.judge(documents: [("a.har", har([first, first]))])
    #expect(doubled.counts.registrations == 2 && doubled.counts.duplicates == 0)
    #expect(
      doubled.devices.flatMap(\.registrations).flatMap(\.findings).contains {
        $0.severity == .violation
      })
  }

  @Test("a judged capture keeps every device: one violation among 5,200 clean ones still counts")
  func everyDevice() throws {
    var judge = CaptureJudge()
    var exchanges = [
      CapturedExchange(
        startedAt: Instant(1), method: "POST", url: "https://x/device/v1/registration",
        requestHeaders: [HeaderField("User-Agent", androidAgent)], status: 201)
    ]
    exchanges[0].requestBody = Array(Self.violating.utf8)
    for index in 0..<5_200 {
      var clean = CapturedExchange(
        startedAt: Instant(2 + Double(index)), method: "POST",
        url: "https://x/device/v1/registration",
        requestHeaders: [HeaderField("User-Agent", androidAgent)], status: 201)
      clean.requestBody = Array(sdkBody(device: "OK-\(index)").utf8)
      exchanges.append(clean)
    }
    for exchange in exchanges { judge.add(exchange) }
    #expect(judge.devices.count == 5_201)
    #expect(judge.worstSeverity == .violation)
    #expect(FindingGate().fails(try #require(judge.devices.first { $0.deviceID == "BAD" })))
  }
}

@Suite("an entry's time and URL read without building it")
struct HAREntryHeadTests {
  @Test("escaped slashes in the URL, members in any order, and a huge other entry")
  func heads() throws {
    let body = sdkBody(device: "ESC")
    let escaped = entry("2026-11-22T10:00:00Z", body: body)
      .replacingOccurrences(
        of: "https://mc.example.com/device/v1/registration",
        with: #"https:\/\/mc.example.com\/device\/v1\/registration"#)
    let big = entry(
      "2026-11-22T10:00:01Z", url: "https://cdn.example.com/image.png", method: "GET",
      body: String(repeating: "z", count: 2_000_000))
    let judged = try HARReader.judge(documents: [("h.har", har([big, escaped]))])
    #expect(judged.devices.map(\.deviceID) == ["ESC"])
    #expect(judged.counts.ignored == 1)
    let head = try #require(
      Data(escaped.utf8).withUnsafeBytes { HARScanner.head($0) })
    #expect(head.url == "https://mc.example.com/device/v1/registration")
    #expect(head.method == "POST" && head.started == "2026-11-22T10:00:00Z")
  }
}
