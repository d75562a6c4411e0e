/// What a receiving server saw of one device's sends: when it last tried, how it ended, and the
/// Retry-After it was given. From it each SDK profile says the earliest its next send could
/// come (R3.2, R4.1, R4.2; SDK-FACTS "Throttle and retry"). The judge of a real app and the
/// receiver's "next allowed" countdown both ask this, so they cannot disagree.
public struct ObservedSends: Hashable, Sendable {
  public enum Outcome: Hashable, Sendable {
    case success
    /// Any non-2xx, or no answer at all; with the Retry-After the answer carried, if any.
    case failure(retryAfter: RetryAfter.Value?)
  }

  public private(set) var lastAttemptAt: Instant?
  /// Failures in a row since the last success (or since a relaunch the judge assumed).
  public private(set) var failures = 0
  /// Seconds between the last two attempts, for "the wait did not grow".
  public private(set) var lastWait: Double?
  /// The newest Retry-After the server sent, when it sent it, and whether it came with the
  /// last answer (the documented contract honours it for that one wait only).
  public private(set) var retryAfter: RetryAfter.Value?
  public private(set) var retryAfterAt: Instant?
  public private(set) var retryAfterOnLast = false

  public init() {}

  public mutating func observe(at now: Instant, _ outcome: Outcome) {
    lastWait = lastAttemptAt.map { now - $0 }
    lastAttemptAt = now
    retryAfterOnLast = false
    switch outcome {
    case .success:
      failures = 0
    case .failure(let value):
      failures += 1
      if let value {
        retryAfter = value
        retryAfterAt = now
        retryAfterOnLast = true
      }
    }
  }

  /// The iOS SDK keeps its interval and throttle in memory: a relaunch starts them again at
  /// 60 s. The Retry-After date is stored, so it stays.
  public mutating func assumeRelaunch() { failures = 0 }
}

/// The earliest an SDK could send next, and the rule that says so.
public struct NextSend: Hashable, Sendable {
  public var at: Instant
  public var rule: String
  public var why: String
  /// The server's Retry-After as this SDK reads it, when it still gates sending.
  public var retryAfterUntil: Instant?
}

extension SDKProfile {
  /// The earliest this SDK could send after what the server saw, or nil before any send.
  /// Every wait is a minimum: an inexact alarm or a suspended app only makes it later.
  public func earliestNext(after observed: ObservedSends) -> NextSend? {
    guard let last = observed.lastAttemptAt else { return nil }
    let failures = observed.failures
    let gate = retryAfterGate(observed)
    var next: NextSend
    switch schedule {
    case .window:
      if failures == 0 {
        next = NextSend(at: last + RetryPolicy.throttle, rule: "R3.2", why: "one a minute")
      } else {
        let wait = RetryPolicy.delay(afterFailures: failures, retryAfter: gate.map { $0 - last })
        next = NextSend(
          at: last + wait, rule: gate == nil ? "R4.1" : "R4.2",
          why: gate == nil
            ? "retry \(failures) of the ladder: \(DurationText.describe(wait))"
            : "the server's Retry-After")
      }
    case .throttleAlarm:
      next =
        failures == 0
        ? NextSend(at: last + RetryPolicy.throttle, rule: "R3.2", why: "android: 60 s throttle")
        : NextSend(
          at: last + RetryPolicy.firstInterval, rule: "R4.1",
          why: "android: a retry 60 s after a failure")
    case .interval:
      let interval = RetryPolicy.backoff(afterFailures: failures + 1)
      next = NextSend(
        at: last + interval, rule: failures == 0 ? "R3.2" : "R4.1",
        why: failures == 0
          ? "ios: one send per 60 s interval"
          : "ios: the interval doubled by \(failures) failure\(failures == 1 ? "" : "s"): \(DurationText.describe(interval))"
      )
    }
    next.retryAfterUntil = gate
    if let gate, gate > next.at {
      next.at = gate
      next.rule = "R4.2"
      next.why = "the server's Retry-After"
    }
    return next
  }

  /// Until when the server's Retry-After holds this SDK back, as this SDK reads the header.
  /// The shipped SDKs store it as a date that outlives later answers and relaunches; the
  /// documented contract honours it for the wait after the answer that carried it.
  public func retryAfterGate(_ observed: ObservedSends) -> Instant? {
    guard let value = observed.retryAfter, let at = observed.retryAfterAt,
      let seconds = honoured(value)
    else { return nil }
    if case .window = schedule, !observed.retryAfterOnLast || observed.failures == 0 { return nil }
    return at + seconds
  }
}
