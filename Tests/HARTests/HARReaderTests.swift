import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// A HAR document around `entries` (JSON text each).
func har(_ entries: [String], pages: String = "[]") -> Data {
  Data(
    #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"pages":\#(pages),"entries":[\#(entries.joined(separator: ","))]}}"#
      .utf8)
}

/// A HAR entry: `body` posted to `url`, answered `status` with `responseHeaders`.
func entry(
  _ time: String, url: String = "https://mc.example.com/device/v1/registration",
  method: String = "POST", body: String, status: Int = 201,
  requestHeaders: [(String, String)] = [("User-Agent", androidAgent)],
  responseHeaders: [(String, String)] = [], extra: String = "", bodyEncoding: String? = nil
) -> String {
  let encoding = bodyEncoding.map { #""encoding":"\#($0)","# } ?? ""
  func headers(_ list: [(String, String)]) -> String {
    "["
      + list.map { #"{"name":\#(JSONText.quoted($0.0)),"value":\#(JSONText.quoted($0.1))}"# }
      .joined(separator: ",") + "]"
  }
  return
    #"{"startedDateTime":"\#(time)","time":12.5,"request":{"method":"\#(method)","url":"\#(url)","httpVersion":"HTTP/1.1","headers":\#(headers(requestHeaders)),"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json",\#(encoding)"text":\#(JSONText.quoted(body))}},"response":{"status":\#(status),"statusText":"","httpVersion":"HTTP/1.1","headers":\#(headers(responseHeaders)),"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":12,"receive":0}\#(extra)}"#
}

func judged(_ data: Data) throws -> CaptureJudge {
  try HARReader.judge(documents: [("capture.har", data)])
}

@Suite("reading captures (HAR 1.2)")
struct HARReaderTests {
  @Test("times in any zone and with any fraction order the entries")
  func times() throws {
    #expect(HARTime.parse("1970-01-01T00:00:00Z") == 0)
    #expect(HARTime.parse("2026-11-22T10:00:00.123Z") == 1_795_341_600.123)
    #expect(HARTime.parse("2026-11-22T11:00:00.123+01:00") == 1_795_341_600.123)
    #expect(HARTime.parse("2026-11-22T05:30:00-0430") == 1_795_341_600)
    // Microseconds are cut to the millisecond.
    #expect(HARTime.parse("2026-11-22T10:00:00.123956+00:00") == 1_795_341_600.123)
    #expect(HARTime.parse("2026-11-22T10:00:00.1Z") == 1_795_341_600.1)
    // No zone: taken as UTC.
    #expect(HARTime.parse("2026-11-22T10:00:00") == 1_795_341_600)
    for bad in [
      "", "yesterday", "2026-13-01T00:00:00Z", "2026-11-22T10:00:00.Z", "2026-11-22T25:00:00Z",
      "2026-11-22T10:00:00Zjunk", "2026-02-31T00:00:00Z", "2025-02-29T00:00:00Z",
      "0000-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
    ] {
      #expect(HARTime.parse(bad) == nil, "\(bad)")
    }
    #expect(HARTime.parse("2024-02-29T00:00:00Z") == 1_709_164_800)
    // The last instant of 9999 is shown in 9999: cut to the millisecond, never rounded up.
    let last = try #require(HARTime.parse("9999-12-31T23:59:59.999999Z"))
    #expect(DateText.utcStamp(Date(timeIntervalSince1970: last)) == "9999-12-31T23:59:59.999Z")
  }

  @Test(
    "entries are judged in start order, across zones; the SDK's other routes are counted per device"
  )
  func ordering() throws {
    let body = sdkBody(device: "D1", platform: "Android")
    let judge = try judged(
      har([
        // Written out of order, in two zones: 10:02 UTC comes after 10:00 UTC.
        entry("2026-11-22T11:02:00.000+01:00", body: body),
        entry("2026-11-22T10:00:00.000Z", body: body),
        entry(
          "2026-11-22T10:01:00.000Z", url: "https://mc.example.com/device/v1/app/sync/D1",
          body: "{}"),
        entry(
          "2026-11-22T10:01:30.000Z", url: "https://cdn.example.com/logo.png", method: "GET",
          body: ""),
      ]))
    #expect(judge.counts.registrations == 2 && judge.counts.otherRoutes == 1)
    #expect(judge.counts.ignored == 1)
    let device = try #require(judge.devices.first)
    #expect(device.registrations.map(\.interval) == [nil, 120])
    #expect(device.otherRoutes == ["sync": 1])
  }

  @Test("not JSON is an error with its line and column")
  func notJSON() {
    #expect {
      _ = try judged(Data("{\"log\": {\"entries\": [\n  {\"a\": 1,, }]}}".utf8))
    } throws: { error in
      let text = "\(error)"
      return text.contains("capture.har") && text.contains("not JSON")
        && text.hasPrefix("capture.har: not JSON: line 2, column 11")
    }
    #expect(throws: HARError.self) { _ = try judged(Data("{\"log\": {\"entries\": [".utf8)) }
    #expect(throws: HARError.self) { _ = try judged(Data()) }
  }

  @Test(
    "numbers follow JSON's grammar: signs, dots and exponents alone are not numbers",
    arguments: ["--+..e", "+1", "01", "1.", ".5", "1e", "1e+", "-", "0x10", "1.2.3"])
  func notANumber(_ number: String) {
    let text = #"{"log":{"entries":[],"x":"# + number + "}}"
    #expect(throws: HARError.self) { _ = try judged(Data(text.utf8)) }
  }

  @Test(
    "every number JSON allows is read", arguments: ["0", "-0", "12", "-1.5e-3", "2E+10", "0.0"])
  func aNumber(_ number: String) throws {
    let text = #"{"log":{"entries":[],"x":"# + number + "}}"
    #expect(try judged(Data(text.utf8)).devices.isEmpty)
  }

  @Test("JSON that is not HAR, and a log with no entries, say so")
  func notHAR() {
    for (text, says) in [
      ("[1, 2]", "not a JSON object with a \"log\""), (#"{"logs": {}}"#, "no \"log\""),
      (#"{"log": {"version": "1.2"}}"#, "\"log\" has no \"entries\""),
      (#"{"log": {"entries": {}}}"#, "\"log.entries\" is not a list"),
    ] {
      #expect {
        _ = try judged(Data(text.utf8))
      } throws: { error in
        "\(error)".contains(says)
      }
    }
  }

  @Test("entries without a time or with one that cannot be read are skipped and counted")
  func badTimes() throws {
    let body = sdkBody(device: "D1")
    let judge = try judged(
      har([
        entry("2026-11-22T10:00:00Z", body: body), entry("the day before", body: body),
        #"{"request":{"method":"POST","url":"https://x/device/v1/registration"}}"#,
      ]))
    #expect(judge.counts.registrations == 1 && judge.counts.skippedTimes == 2)
    #expect(
      CaptureText.summary(judge, sources: ["capture.har"]).contains(
        "2 without a readable start time"))
  }

  @Test("bodies posted to the registration route that are no registration are counted")
  func notRegistrations() throws {
    let judge = try judged(
      har([
        entry("2026-11-22T10:00:00Z", body: "<html>"),
        entry("2026-11-22T10:00:01Z", body: #"{"platform":"iOS"}"#),
      ]))
    #expect(judge.counts.notRegistrations == 2 && judge.devices.isEmpty)
  }

  @Test("nesting deeper than the limit is refused, not followed")
  func deepNesting() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect {
      _ = try judged(Data(#"{"log":{"entries":[\#(deep)]}}"#.utf8))
    } throws: { error in
      "\(error)".contains("nested deeper than \(HARScanner.depthLimit)")
    }
  }

  @Test("base64 bodies are decoded; control characters in fields print escaped")
  func encodingsAndEscapes() throws {
    // JSON escapes: the device id holds a real ESC and BEL once decoded.
    let body = sdkBody(device: #"EVIL\u001b]0;x\u0007"#, tags: ["ALL"])
    let base64 = Data(body.utf8).base64EncodedString()
    let text = entry("2026-11-22T10:00:00Z", body: base64, bodyEncoding: "base64")
    let judge = try judged(har([text]))
    #expect(judge.counts.registrations == 1)
    let report = CaptureText.report(judge, sources: ["cap\u{1B}[2J.har"])
    #expect(!report.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    #expect(report.contains("EVIL"))
  }

  @Test("a refused registration is said with its fix once, and the columns keep their gap")
  func refusedOnce() throws {
    let body = sdkBody(device: "R1")
    let judge = try judged(
      har([
        entry("2026-11-22T10:00:00Z", body: body),
        entry("2026-11-22T10:01:10Z", body: sdkBody(device: "R1", tags: ["ALL", "x"])),
        entry("2026-11-22T10:02:30Z", body: body, status: 401),
      ]))
    let report = CaptureText.report(judge, sources: ["capture.har"])
    #expect(report.components(separatedBy: "fix: ").count == 2, "\(report)")
    // "+1 min 10 s" (eleven characters) and its status stay apart, in their column.
    #expect(report.contains("+1 min 10 s   201"), "\(report)")
  }

  @Test("a capture of many entries reads one entry at a time")
  func manyEntries() throws {
    let ignored = entry(
      "2026-11-22T10:00:00Z", url: "https://cdn.example.com/a.png", method: "GET", body: "")
    let body = sdkBody(device: "D1")
    let entries =
      Array(repeating: ignored, count: 20_000) + [entry("2026-11-22T10:00:00Z", body: body)]
    let judge = try judged(har(entries))
    #expect(judge.counts.ignored == 20_000 && judge.counts.registrations == 1)
  }
}
