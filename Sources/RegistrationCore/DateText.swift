import Foundation

/// Dates as the SDKs and HTTP write them.
public enum DateText {
  /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC: how both shipped SDKs write `registrationDateUtc`
  /// and the dates in their state dumps.
  public static func utcStamp(_ date: Date) -> String {
    formatter("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", timeZone: "UTC").string(from: date)
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
