import Foundation

/// Dates as the SDKs and HTTP write them.
public enum DateText {
  /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC: how both shipped SDKs write `registrationDateUtc`
  /// and the dates in their state dumps.
  /// Worked out in whole milliseconds, rounded as Foundation's formatter rounds, in the
  /// proleptic Gregorian calendar (Foundation's turns Julian before 1582).
  /// `utcStamp`, written as bytes: a capture writes one for every request.
  public static func appendUTCStamp(_ date: Date, to bytes: inout [UInt8]) {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, abs(seconds) < 1e14 else {
      bytes += Array("\(seconds)".utf8)
      return
    }
    let milliseconds = Int64((seconds * 1000).rounded())
    let (days, inDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
    let (day, time) = inDay < 0 ? (days - 1, inDay + 86_400_000) : (days, inDay)
    let (year, month, dayOfMonth) = civil(days: day)
    /// `value` in at least `width` digits, zeros before it; a year outside 0...9999 as
    /// `String` writes it.
    func padded(_ value: Int64, _ width: Int) {
      var divisor: Int64 = 1
      for _ in 1..<width { divisor *= 10 }
      guard value >= 0, value < divisor * 10 else {
        let text = String(value)
        bytes += Array(repeating: UInt8(ascii: "0"), count: max(0, width - text.utf8.count))
        bytes += Array(text.utf8)
        return
      }
      while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
      }
    }
    padded(year, 4)
    bytes.append(UInt8(ascii: "-"))
    padded(month, 2)
    bytes.append(UInt8(ascii: "-"))
    padded(dayOfMonth, 2)
    bytes.append(UInt8(ascii: "T"))
    padded(time / 3_600_000, 2)
    bytes.append(UInt8(ascii: ":"))
    padded(time / 60_000 % 60, 2)
    bytes.append(UInt8(ascii: ":"))
    padded(time / 1000 % 60, 2)
    bytes.append(UInt8(ascii: "."))
    padded(time % 1000, 3)
    bytes.append(UInt8(ascii: "Z"))
  }

  public static func utcStamp(_ date: Date) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendUTCStamp(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// An HTTP date (RFC 9110's IMF-fixdate, `Thu, 26 Nov 2026 13:32:35 GMT`) of whole seconds
  /// since 1970, as an answer's `Date` header carries it.
  public static func httpDate(secondsSince1970 seconds: Int64) -> String {
    let (days, inDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let (day, time) = inDay < 0 ? (days - 1, inDay + 86_400) : (days, inDay)
    let (year, month, dayOfMonth) = civil(days: day)
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    /// At least `width` digits, zeros before.
    func digits(_ value: Int64, _ width: Int = 2) -> String {
      let text = String(value)
      return value < 0 ? text : String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let weekday = weekdays[Int(((day % 7) + 7) % 7)]
    return "\(weekday), \(digits(dayOfMonth)) \(months[Int(month) - 1]) \(digits(year, 4)) "
      + "\(digits(time / 3600)):\(digits(time / 60 % 60)):\(digits(time % 60)) GMT"
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
  static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The first of `formats` that reads `text` (POSIX locale, the given time zone).
  public static func parse(_ text: String, formats: [String], timeZone: String = "UTC") -> Date? {
    for format in formats {
      if let date = formatter(format, timeZone: timeZone).date(from: text) { return date }
    }
    return nil
  }

  private static func formatter(_ format: String, timeZone: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: timeZone)
    formatter.dateFormat = format
    return formatter
  }
}
