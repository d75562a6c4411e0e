/// Reads HAR's `startedDateTime`: ISO 8601 as the exporters write it, with any fraction of a
/// second (Chrome and Charles write milliseconds, mitmproxy microseconds) and any zone (`Z`,
/// `+01:00`, `+0100`). A time with no zone is taken as UTC: every entry of one capture comes
/// from one exporter, so their order and spacing stay right. Only real dates between 1970 and
/// 9999 are times: a capture cannot come from before the epoch, and no calendar shown to the
/// user disagrees with this one's arithmetic in that range.
enum HARTime {
  /// Seconds since the epoch, or nil when `text` is not such a time.
  static func parse(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    var index = 0
    func digits(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + count] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      index += count
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
      index += 1
      return true
    }
    guard let year = digits(4), expect("-"), let month = digits(2), expect("-"),
      let day = digits(2), index < bytes.count,
      bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ")
    else { return nil }
    index += 1
    guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
      let second = digits(2), (1970...9999).contains(year), (1...12).contains(month),
      (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    // The fraction is cut to the millisecond: what every tool shows, and all a time in the
    // 9999s can carry through a Date without turning into the next year.
    var milliseconds = 0
    if expect(".") || expect(",") {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        if index - start < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - 48) }
        index += 1
      }
      guard index > start else { return nil }
      for _ in min(index - start, 3)..<3 { milliseconds *= 10 }
    }
    var offset = 0
    if expect("Z") || expect("z") {
    } else if index < bytes.count,
      bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
    {
      let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      index += 1
      guard let hours = digits(2), hours <= 23 else { return nil }
      _ = expect(":")
      let minutes = digits(2) ?? 0
      guard minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard index == bytes.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
      + Double(milliseconds) / 1000
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
