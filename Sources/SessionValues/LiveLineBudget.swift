import EngagementCore
import RegistrationCore

/// How many event lines a live command (`regctl serve`) writes in a second of wall-clock
/// time. A fleet makes thousands of events a second: no one reads them as they scroll, and
/// writing each one (formatted, a system call) on the server's actor cost a fifth of a
/// registration. Past the budget the events of that second are counted by kind and said in
/// one line once the second is over; the API, the timeline and the capture keep every one.
/// Refusals, findings and an adopted app are always written: they are what a user watches
/// for, and each is already said at most a few times a minute a device.
public struct LiveLineBudget: Sendable {
  /// Event lines written in any one second; past it they are counted, not written.
  public static let linesPerSecond = 50

  public let perSecond: Int
  private let zone: LocalZone
  /// The wall-clock second being counted (whole seconds since the epoch).
  private var second: Int?
  private var written = 0
  private var held: [String: Int] = [:]

  public init(perSecond: Int = LiveLineBudget.linesPerSecond, zone: LocalZone) {
    self.perSecond = max(1, perSecond)
    self.zone = zone
  }

  /// Whether events are held that `summary(at:)` has yet to say.
  public var isHolding: Bool { !held.isEmpty }

  /// The lines to write for `event`: the summary of an earlier second that held some, then
  /// the event's own line while the second's budget lasts.
  public mutating func admit(_ event: RunEvent, line: () -> String) -> [String] {
    let eventSecond = Self.second(of: event.t)
    var lines: [String] = []
    if eventSecond != second {
      if let summary = summary() { lines.append(summary) }
      second = eventSecond
      written = 0
    }
    if written < perSecond || Self.alwaysWritten(event) {
      written += 1
      lines.append(line())
    } else {
      held[Self.heldName(event), default: 0] += 1
    }
    return lines
  }

  static func alwaysWritten(_ event: RunEvent) -> Bool {
    switch event.body {
    case .server(.refused), .server(.finding), .server(.adopted): true
    default: false
    }
  }

  /// What the summary counts a held event as: its kind of server event, or its type.
  static func heldName(_ event: RunEvent) -> String {
    switch event.body {
    case .server(.received): "received"
    case .server(.processed): "processed"
    case .server(.rejected): "rejected"
    case .server(.faulted): "faulted"
    case .server(.orphaned): "orphaned"
    default: event.type
    }
  }

  /// The summary of a second that held events, once that second is over (or `force`d, as a
  /// command stops); nil when there is nothing to say yet.
  public mutating func summary(at now: Instant, force: Bool = false) -> String? {
    guard force || second.map({ Self.second(of: now) > $0 }) ?? false else { return nil }
    return summary()
  }

  private mutating func summary() -> String? {
    guard !held.isEmpty else { return nil }
    let total = held.values.reduce(0, +)
    let kinds = held.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    held = [:]
    let time = second.map { LiveLine.time(Instant(Double($0)), in: zone) } ?? "--:--:--"
    return
      "\(time)  (\(total) more event\(total == 1 ? "" : "s") that second not written: \(kinds);"
      + " at most \(perSecond) lines a second, the API and the capture keep every one)"
  }

  /// Whole seconds since the epoch, for any instant a clock can give.
  static func second(of instant: Instant) -> Int {
    let seconds = instant.seconds.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
    return Int(seconds)
  }
}
