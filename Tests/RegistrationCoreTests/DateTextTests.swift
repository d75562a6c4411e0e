import Foundation
import Testing

@testable import RegistrationCore

@Suite("dates as the SDKs write them")
struct DateTextTests {
  @Test(
    "registrationDateUtc agrees with a Gregorian formatter from 1970 to 9999, by the millisecond")
  func agreesWithFormatter() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
    var random = SplitMix64(seed: 25)
    for _ in 0..<2_000 {
      let milliseconds = Int64(random.next() % 253_402_300_800_000)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      #expect(DateText.utcStamp(date) == formatter.string(from: date), "\(milliseconds)")
    }
  }

  @Test("the edges: the epoch, a leap day, the last millisecond of 9999, before the epoch")
  func edges() {
    #expect(DateText.utcStamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(
      DateText.utcStamp(Date(timeIntervalSince1970: 1_709_164_800.5)) == "2024-02-29T00:00:00.500Z")
    #expect(
      DateText.utcStamp(Date(timeIntervalSince1970: 253_402_300_799.999))
        == "9999-12-31T23:59:59.999Z")
    #expect(DateText.utcStamp(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
  }

  @Test("bytes appended after what is there; huge, negative and missing times as they were")
  func extremes() {
    let pinned: [(Double, String)] = [
      (-62_200_000_000, "00-2-12-17T14:13:20.000Z"), (9e13, "2853956-06-19T16:00:00.000Z"),
      (253_402_300_800, "10000-01-01T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.000Z"),
      (1e20, "1e+20"), (.nan, "nan"), (-.infinity, "-inf"),
    ]
    for (value, expected) in pinned {
      var bytes: [UInt8] = [0x41]
      DateText.appendUTCStamp(Date(timeIntervalSince1970: value), to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == "A" + expected, "\(value)")
    }
  }

  @Test("an HTTP date, as Foundation's formatter writes RFC 9110's, over four centuries")
  func httpDate() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    #expect(DateText.httpDate(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(DateText.httpDate(secondsSince1970: 1_795_700_255) == "Thu, 26 Nov 2026 13:37:35 GMT")
    var mismatches: [Int64] = []
    // From 1900 to 2300, a step that lands on every weekday, hour and day of the month.
    var seconds: Int64 = -2_208_988_800
    while seconds < 10_413_792_000 {
      let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
      if DateText.httpDate(secondsSince1970: seconds) != expected { mismatches.append(seconds) }
      seconds += 86_400 * 37 + 3_607
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
  }
}
