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

extension Instant {
  /// The first of some deadlines, any of which may be unset: the one deadline merge for every
  /// loop and every jump. Nil when none is set.
  public static func earliest(_ deadlines: Instant?...) -> Instant? {
    deadlines.compactMap { $0 }.min()
  }

  /// The last of some conditions' instants: when all of them have passed. Nil when none is set.
  public static func latest(_ instants: Instant?...) -> Instant? {
    instants.compactMap { $0 }.max()
  }
}
