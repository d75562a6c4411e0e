import Foundation

/// The send windows and the retry schedule (R3.2, R4.1, R4.2).
public enum RetryPolicy {
  /// At most one registration per this many seconds; a change goes out this long after the
  /// first change of its window (R3.2).
  public static let throttle: Double = 60
  /// The first retry interval; each failure doubles it (R4.1, obs.).
  public static let firstInterval: Double = 60
  /// The longest wait: after reaching it, retries are daily until one succeeds (R4.1).
  public static let cap: Double = 86_400

  /// The wait after `failures` failed attempts in a row (1 = the first failure):
  /// 60, 120, 240, ... doubling up to the cap, then the cap for ever.
  public static func backoff(afterFailures failures: Int) -> Double {
    let doublings = max(0, failures - 1)
    // 2^11 * 60 already exceeds a day; stop doubling there so nothing overflows.
    if doublings >= 11 { return cap }
    return min(cap, firstInterval * Double(1 << doublings))
  }

  /// The wait before the next attempt. A server's Retry-After replaces the computed backoff,
  /// but never goes below the throttle (R3.2) nor above a day (R4.2).
  public static func delay(afterFailures failures: Int, retryAfter: Double?) -> Double {
    if let retryAfter, retryAfter.isFinite {
      return min(cap, max(throttle, retryAfter))
    }
    return backoff(afterFailures: failures)
  }

  /// The rungs of the ladder from one minute to one day, for the inspector.
  public static let ladder: [Double] = {
    var rungs: [Double] = []
    var failures = 1
    while true {
      let wait = backoff(afterFailures: failures)
      rungs.append(wait)
      if wait >= cap { return rungs }
      failures += 1
    }
  }()

  /// A number in [-1, 1] fixed by the device and the attempt (FNV-1a): retry jitter that is
  /// still deterministic, so a fleet with a seed gives the same numbers every time.
  public static func jitterUnit(device: String, failures: Int) -> Double {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in device.utf8 + Array("#\(failures)".utf8) {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    hash ^= hash >> 33
    return Double(hash >> 11) / Double(1 << 53) * 2 - 1
  }

  /// 400, 401 and 403 will not heal by waiting: credentials or payload need a fix (R4.5).
  public static func needsFix(status: Int?) -> Bool {
    guard let status else { return false }
    return status == 400 || status == 401 || status == 403
  }

  public static func isSuccess(status: Int) -> Bool { (200..<300).contains(status) }
}

/// Parses an HTTP `Retry-After` value: delay-seconds or an HTTP date (RFC 9110 §10.2.3). The one
/// reader of the header: the engine's transport, the relay and the judge all go through it, and
/// each SDK profile then decides which form it honours (`SDKProfile.honoured`).
public enum RetryAfter {
  /// What the header said, in the form it said it.
  public enum Value: Hashable, Sendable, Codable {
    /// Digits: whole seconds from the answer.
    case delaySeconds(Double)
    /// An HTTP date, as seconds from the answer (0 when the date has passed).
    case date(secondsFromNow: Double)

    public var seconds: Double {
      switch self {
      case .delaySeconds(let seconds), .date(let seconds): seconds
      }
    }
  }

  /// The header read, or nil when it is neither form.
  public static func parse(_ header: String, now: Date) -> Value? {
    let text = header.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) {
      // All digits: one too long for Double's exact range is past any cap anyway.
      return .delaySeconds(Double(text) ?? .greatestFiniteMagnitude)
    }
    guard let date = httpDate(text) else { return nil }
    return .date(secondsFromNow: max(0, date.timeIntervalSince(now)))
  }

  /// Seconds to wait from `now`, or nil when the value is neither form. A date in the past
  /// gives 0.
  public static func seconds(from header: String, now: Date) -> Double? {
    parse(header, now: now)?.seconds
  }

  /// IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept.
  public static func httpDate(_ text: String) -> Date? {
    DateText.parse(
      text,
      formats: [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
      ], timeZone: "GMT")
  }
}
