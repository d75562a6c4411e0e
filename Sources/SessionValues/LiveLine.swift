import Foundation
import RegistrationCore

/// The local time zone as a tool reads it: its offset from UTC at an instant (daylight saving
/// moves it). The tools give the C library's (`LocalZone.system`, in ToolSupport): a frame
/// writes several times, and Foundation's TimeZone would load ICU's tables for each.
public struct LocalZone: Sendable {
  public let offsetFromUTC: @Sendable (Double) -> Int

  public init(offsetFromUTC: @escaping @Sendable (Double) -> Int) {
    self.offsetFromUTC = offsetFromUTC
  }

  public static let utc = LocalZone { _ in 0 }
}

/// Formats items for a live session, where time is the wall clock (or a scaled one).
public enum LiveLine {
  /// Wall-clock time of day in `zone`, HH:MM:SS.
  public static func time(_ instant: Instant, in zone: LocalZone) -> String {
    guard instant.seconds.isFinite, abs(instant.seconds) < 1e12 else { return "--:--:--" }
    let local = Int(instant.seconds.rounded(.down)) + zone.offsetFromUTC(instant.seconds)
    let seconds = ((local % 86_400) + 86_400) % 86_400
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(pad(seconds / 3600)):\(pad(seconds % 3600 / 60)):\(pad(seconds % 60))"
  }

  public static func event(_ event: RunEvent, json: Bool, in zone: LocalZone) -> String {
    if json { return event.jsonLine }
    let time = { (instant: Instant) in Self.time(instant, in: zone) }
    return
      "\(time(event.t))  \(event.type.padding(toLength: 16, withPad: " ", startingAt: 0))\(event.detail(time: time))"
  }
}
