import DequeModule
import RegistrationCore

/// When each device's push address is looked up in the tenant: once its oldest registration
/// not yet looked up (answered 2xx by the tenant) is `window` old, at most `perMinute` lookups
/// in any minute, none while the tenant asked for a pause (a 429's Retry-After). Pure: the
/// server's loop asks it what is due on the server's clock. A registration is never held for
/// it: the lookups run beside the relay, after the fact.
public struct ReadBackQueue: Sendable {
  /// Salesforce's documents give processing 5 to 15 minutes; the longer is waited by default.
  public static let defaultWindow: Double = 15 * 60
  /// Lookups in any 60 seconds: a few, so a watched app never spends the tenant's API limits.
  public static let perMinute = 4
  /// The longest pause after a 429 that named none.
  public static let pauseWithoutRetryAfter: Double = 60
  /// Devices waiting at most; past it a new device is not looked up (counted).
  public static let pendingLimit = 1_000

  public let window: Double
  /// A device waiting: when it is due, and since when it has waited (its oldest 2xx not
  /// looked up).
  public struct Waiting: Sendable, Equatable {
    public var deviceID: String
    public var at: Instant
    public var since: Instant
  }

  /// A device whose newest registration keeps arriving inside the window is looked up at the
  /// latest this many windows after its oldest one not looked up.
  public static let longestWait = 3.0

  /// Each waiting device.
  private var due: [String: Waiting] = [:]
  /// The lookups of the last minute, oldest first.
  private var recent: Deque<Instant> = []
  /// No lookup before this (the tenant's Retry-After).
  public private(set) var pausedUntil: Instant?
  /// Devices not queued because `pendingLimit` were waiting.
  public private(set) var skipped = 0

  public init(window: Double = ReadBackQueue.defaultWindow) {
    self.window = window
  }

  public var waiting: Int { due.count }

  /// When `deviceID`'s lookup is due, nil when none waits.
  public func dueAt(_ deviceID: String) -> Instant? { due[deviceID]?.at }

  /// The tenant answered a registration of `deviceID` with a 2xx at `at`: a lookup is due a
  /// window later, unless one already waits (at its turn the server compares the newest
  /// registration, or waits for it: `wait`). False when `pendingLimit` devices wait already.
  @discardableResult
  public mutating func answered(_ deviceID: String, at: Instant) -> Bool {
    guard due[deviceID] == nil else { return true }
    guard due.count < Self.pendingLimit else {
      skipped += 1
      return false
    }
    due[deviceID] = Waiting(deviceID: deviceID, at: at + window, since: at)
    return true
  }

  /// The device whose turn it is now (the earliest due), or nil. Taken out of the queue; the
  /// tenant is asked about it only when `mayAsk` (the rate, a pause), and `asked` counts it.
  public mutating func take(now: Instant) -> Waiting? {
    guard let first = due.values.filter({ $0.at <= now }).min(by: { $0.at < $1.at }) else {
      return nil
    }
    due[first.deviceID] = nil
    return first
  }

  /// Whether the tenant may be asked now: the minute's lookups not spent, no pause.
  public mutating func mayAsk(now: Instant) -> Bool { allowed(now: now) <= now }

  /// The tenant is asked now: one of the minute's lookups.
  public mutating func asked(now: Instant) {
    recent.append(now)
  }

  /// Puts a device taken back, due at `at` (its newest registration a window old), keeping
  /// since when it has waited.
  public mutating func wait(_ waiting: Waiting, until at: Instant) {
    var later = waiting
    later.at = at
    due[waiting.deviceID] = later
  }

  /// The tenant answered 429: no lookup before `retryAfter` seconds from now (a minute when it
  /// named none, or a number that is none), and this device asked again then.
  public mutating func throttled(_ deviceID: String, now: Instant, retryAfter: Double?) {
    let wait =
      retryAfter.flatMap { $0.isFinite ? min(max($0, 1), 86_400) : nil }
      ?? Self.pauseWithoutRetryAfter
    let until = now + wait
    pausedUntil = max(pausedUntil ?? until, until)
    due[deviceID] = Waiting(deviceID: deviceID, at: until, since: due[deviceID]?.since ?? now)
  }

  /// When to look again: the earliest due lookup the rate and a pause allow; nil when none
  /// waits.
  public mutating func nextWake(now: Instant) -> Instant? {
    guard let earliest = due.values.map(\.at).min() else { return nil }
    return max(earliest, allowed(now: now))
  }

  /// The earliest instant a lookup may start: after a pause, and once the oldest of the last
  /// minute's lookups is a minute old when `perMinute` were made.
  private mutating func allowed(now: Instant) -> Instant {
    while let first = recent.first, first + 60 <= now { recent.removeFirst() }
    var earliest = now
    if recent.count >= Self.perMinute, let first = recent.first { earliest = first + 60 }
    if let pausedUntil, pausedUntil > earliest { earliest = pausedUntil }
    return earliest
  }
}
