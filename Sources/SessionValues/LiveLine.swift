import Foundation
import RegistrationCore
import SystemCalls

/// Formats items for a live session, where time is the wall clock (or a scaled one).
public enum LiveLine {
  /// Local wall-clock time of day, HH:MM:SS.
  public static func time(_ instant: Instant) -> String {
    guard instant.seconds.isFinite, abs(instant.seconds) < 1e12 else { return "--:--:--" }
    let local = Int(instant.seconds.rounded(.down)) + offsetFromUTC(at: instant)
    let seconds = ((local % 86_400) + 86_400) % 86_400
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(pad(seconds / 3600)):\(pad(seconds % 3600 / 60)):\(pad(seconds % 60))"
  }

  /// The local time zone's offset at `instant`, from the C library: a frame writes several
  /// times, and Foundation's TimeZone would load ICU's tables for each (CPU and memory).
  static func offsetFromUTC(at instant: Instant) -> Int {
    SystemCalls.localOffsetFromUTC(atEpochSeconds: instant.seconds)
  }

  public static func event(_ event: RunEvent, json: Bool) -> String {
    if json { return event.jsonLine }
    return
      "\(time(event.t))  \(event.type.padding(toLength: 16, withPad: " ", startingAt: 0))\(event.detail(time: time))"
  }
}
