import RegistrationCore

/// One rule a watched app's registration broke, in words a QA tester can act on.
public struct Finding: Hashable, Sendable, Codable {
  public var code: String
  public var rule: String
  public var message: String

  public init(code: String, rule: String, message: String) {
    self.code = code
    self.rule = rule
    self.message = message
  }
}

/// A registration a real app sent, as the watch keeps it.
public struct WatchedRegistration: Hashable, Sendable, Codable {
  public var at: Instant
  /// Seconds since the device's registration before, if any.
  public var interval: Double?
  /// What the server answered (a fault's status included); nil when it answered nothing
  /// (a hang, a dropped or refused connection).
  public var status: Int?
  public var retryAfter: Double?
  /// The body as it arrived, cut at `DeviceWatch.bodyLimit` bytes (a hostile client must not
  /// make the watch hold its megabytes); empty once older than the newest few.
  public var body: String
  /// What differs from the registration before ("+ tag sports", "subscriberKey: A -> B").
  public var changes: [String]
  public var findings: [Finding]
  public var subscriberTokenSent: Bool
}

/// The rules a watched app's registrations are held to (R2-R8, S5), judged from what the
/// server saw: pure, so each rule has its own test.
public enum RegistrationJudge {
  /// Seconds of slack for clocks and networks.
  public static let tolerance: Double = 1

  /// The retry interval R4.1 requires after `failures` failures in a row: 60 s doubling,
  /// capped at a day.
  public static func ladder(afterFailures failures: Int) -> Double {
    guard failures > 0 else { return 0 }
    var interval = 60.0
    for _ in 1..<min(failures, 20) { interval = min(interval * 2, 86_400) }
    return interval
  }

  /// `history`: the device's registrations before this one, oldest first (their times,
  /// answers and Retry-After); `lastSent` and `lastAcknowledged`: the bodies to compare with.
  public static func judge(
    _ payload: RegistrationPayload?, at now: Instant, after history: [WatchedRegistration],
    lastSent: RegistrationPayload?, lastAcknowledged: RegistrationPayload?,
    definedAttributes: Set<String>?, contactStillHasOtherDevices: (String) -> Bool
  ) -> [Finding] {
    var findings: [Finding] = []
    if let previous = history.last {
      findings += timing(at: now, after: history, previous: previous)
    }
    guard let payload else { return findings }
    findings += content(payload, definedAttributes: definedAttributes)
    if let lastSent {
      findings += contactKey(
        from: lastSent.subscriberKey, to: payload.subscriberKey,
        stillHasOtherDevices: contactStillHasOtherDevices)
    }
    if let acknowledged = lastAcknowledged, comparable(acknowledged) == comparable(payload) {
      findings.append(
        Finding(
          code: "unchangedResent", rule: "R3.4",
          message: "the same registration the server already acknowledged was sent again"))
    }
    return findings
  }

  /// R3.2, R4.1, R4.2: when this registration came, given what was answered before.
  static func timing(
    at now: Instant, after history: [WatchedRegistration], previous: WatchedRegistration
  )
    -> [Finding]
  {
    let interval = now - previous.at
    var findings: [Finding] = []
    let failed = previous.status.map { $0 / 100 != 2 } ?? true
    if !failed {
      if interval < 60 - tolerance {
        findings.append(
          Finding(
            code: "throttleViolated", rule: "R3.2",
            message:
              "sent \(DurationText.describe(interval)) after the registration before; at most one a minute"
          ))
      }
      return findings
    }
    let failures = history.reversed().prefix { ($0.status.map { $0 / 100 != 2 } ?? true) }.count
    let required = ladder(afterFailures: failures)
    if interval < required - tolerance {
      findings.append(
        Finding(
          code: "retryTooSoon", rule: "R4.1",
          message:
            "retried \(DurationText.describe(interval)) after failure \(failures); the ladder asks for \(DurationText.describe(required))"
        ))
    }
    if failures >= 2, history.count >= 2 {
      let earlier = history[history.count - 2]
      let previousInterval = previous.at - earlier.at
      if interval <= previousInterval + tolerance && interval < 86_400 - tolerance {
        findings.append(
          Finding(
            code: "retryLadderBroken", rule: "R4.1",
            message:
              "the wait after failure \(failures) (\(DurationText.describe(interval))) did not grow from the one before (\(DurationText.describe(previousInterval)))"
          ))
      }
    }
    if let retryAfter = previous.retryAfter, interval < min(retryAfter, 86_400) - tolerance {
      findings.append(
        Finding(
          code: "retryAfterIgnored", rule: "R4.2",
          message:
            "retried after \(DurationText.describe(interval)); the server said Retry-After \(DurationText.describe(retryAfter))"
        ))
    }
    return findings
  }

  /// R6.3, R2.5, S5, R2.4: what the body carries.
  static func content(_ payload: RegistrationPayload, definedAttributes: Set<String>?)
    -> [Finding]
  {
    var findings: [Finding] = []
    let missing = [
      ("deviceID", payload.deviceID), ("etAppId", payload.etAppId), ("platform", payload.platform),
    ].filter { ($0.1 ?? "").isEmpty }.map(\.0)
    if !missing.isEmpty {
      findings.append(
        Finding(
          code: "missingRequired", rule: "R6.3",
          message: "missing \(missing.joined(separator: ", "))"))
    }
    let keys = (payload.attributes ?? []).map(\.key)
    let reserved = keys.filter { InputRules.isReservedAttributeKey($0) }
    if !reserved.isEmpty {
      findings.append(
        Finding(
          code: "reservedAttribute", rule: "R2.5",
          message: "attribute keys reserved for the SDK: \(reserved.joined(separator: ", "))"))
    }
    if let definedAttributes {
      let undefined = keys.filter { !definedAttributes.contains($0) && !reserved.contains($0) }
      if !undefined.isEmpty {
        findings.append(
          Finding(
            code: "undefinedAttribute", rule: "S5",
            message:
              "not in the app's attribute set, so the registration is rejected: \(undefined.joined(separator: ", "))"
          ))
      }
    }
    if let key = payload.subscriberKey, InputRules.isGenericContactKey(key) {
      findings.append(
        Finding(
          code: "genericContactKey", rule: "R2.4",
          message:
            "\"\(TerminalText.escaped(key))\" is not unique: every device using it shares one contact"
        ))
    }
    return findings
  }

  /// R8.2, R8.3: a contact key that changed, and the orphan it makes.
  static func contactKey(
    from before: String?, to after: String?, stillHasOtherDevices: (String) -> Bool
  ) -> [Finding] {
    guard before != after, let after else { return [] }
    if let before {
      let orphan =
        stillHasOtherDevices(before)
        ? "\"\(TerminalText.escaped(before))\" keeps its other devices"
        : "\"\(TerminalText.escaped(before))\" has no device left and is orphaned (still billed)"
      return [
        Finding(
          code: "contactKeyChanged", rule: "R8.3",
          message: "contact key changed to \"\(TerminalText.escaped(after))\": \(orphan)")
      ]
    }
    return [
      Finding(
        code: "contactKeyChanged", rule: "R8.2",
        message:
          "the device registered without a contact key, then as \"\(TerminalText.escaped(after))\": the contact the server made up for it is orphaned (still billed)"
      )
    ]
  }

  /// The body without what changes on every request (`uuid`, the send time, a signature).
  static func comparable(_ payload: RegistrationPayload) -> RegistrationPayload {
    var payload = payload
    payload.uuid = nil
    payload.registrationDateUtc = nil
    payload.signedString = nil
    return payload
  }
}
