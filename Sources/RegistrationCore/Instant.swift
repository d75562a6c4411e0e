/// A point in time on whichever clock drives the engine: seconds since the Unix epoch for the
/// real clock, seconds since the start of a run for virtual time. The core never reads a clock;
/// every decision takes "now" as an `Instant`, which is what makes a 30-day outage instant to run.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var seconds: Double

  public init(_ seconds: Double) { self.seconds = seconds }

  public static let zero = Instant(0)

  public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.seconds < rhs.seconds }
  public static func + (lhs: Instant, rhs: Double) -> Instant { Instant(lhs.seconds + rhs) }
  public static func - (lhs: Instant, rhs: Double) -> Instant { Instant(lhs.seconds - rhs) }
  public static func - (lhs: Instant, rhs: Instant) -> Double { lhs.seconds - rhs.seconds }

  public init(from decoder: any Decoder) throws {
    seconds = try decoder.singleValueContainer().decode(Double.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(seconds)
  }

  public var description: String { "t=\(seconds)" }
}
