import Foundation
import RegistrationCore

/// One registration as the server saw it, for the judge.
public struct JudgedRequest: Sendable {
  public var payload: RegistrationPayload?
  public var at: Instant
  /// What the server answered; nil for no answer (a hang, a dropped connection).
  public var status: Int?
  public var retryAfter: RetryAfter.Value?
  /// The profile of the SDK the User-Agent names, at the version it names: its rules are
  /// the ones that apply (`ClientIdentity.profile`).
  public var profile: SDKProfile

  public init(
    payload: RegistrationPayload?, at: Instant, status: Int?, retryAfter: RetryAfter.Value?,
    profile: SDKProfile
  ) {
    self.payload = payload
    self.at = at
    self.status = status
    self.retryAfter = retryAfter
    self.profile = profile
  }
}

/// What the judge asks of the server: its attribute table, and who else holds a contact.
public struct ServerFacts {
  public var definedAttributes: Set<String>?
  /// The tenant's attribute set `definedAttributes` was read from, when it was.
  public var demographicsSet: String?
  public var contactStillHasOtherDevices: (String) -> Bool

  public init(
    definedAttributes: Set<String>?, demographicsSet: String? = nil,
    contactStillHasOtherDevices: @escaping (String) -> Bool
  ) {
    self.definedAttributes = definedAttributes
    self.demographicsSet = demographicsSet
    self.contactStillHasOtherDevices = contactStillHasOtherDevices
  }
}

/// The rules a watched app's registrations are held to, judged from what the server saw, for
/// the SDK the app runs: its timing from the core's profile (`SDKProfile.earliestNext`), its
/// body by the core's input rules, its contact by what processing accepts. Pure.
public enum RegistrationJudge {
  /// Seconds of slack for clocks and networks.
  public static let tolerance: Double = 1

  /// Judges `request` against what `memory` holds, and brings `memory` up to date.
  public static func judge(
    _ request: JudgedRequest, memory: inout JudgeMemory, server: ServerFacts
  ) -> [Finding] {
    let profile = request.profile
    var findings: [Finding] = []
    let repeated =
      request.payload.flatMap { payload in
        memory.lastAcknowledged.map { $0.isSameRecord(as: payload) }
      } ?? false
    var cause: Finding.Cause?
    var runCause: Finding.Cause?
    if let next = profile.earliestNext(after: memory.observed), request.at < next.at - tolerance {
      let early = timing(
        request, next: next, profile: profile, memory: memory, repeated: repeated)
      findings.append(early)
      cause = early.severity == .note ? early.cause : nil
      if cause == .relaunch { memory.observed.assumeRelaunch() }
      runCause = memory.runCause ?? cause
    }
    if let payload = request.payload {
      if repeated, let early = findings.indices.last, cause == nil {
        // One mistake, one finding: an early send of the record the server acknowledged
        // is the timing violation, and says it carried nothing new.
        findings[early].message +=
          "; and it carried the same record the server acknowledged (R3.4): no SDK resends an unchanged record, so something outside the SDK is posting it"
      } else if repeated {
        findings.append(repeatedRecord(request, memory: memory))
      }
      findings += content(payload, profile: profile, server: server)
      findings += upgrade(payload, memory: memory).map { [$0] } ?? []
      findings += contactKey(request, payload: payload, memory: &memory, server: server)
    }
    remember(request, in: &memory, runCause: runCause, repeated: repeated)
    return findings
  }

  private static func remember(
    _ request: JudgedRequest, in memory: inout JudgeMemory, runCause: Finding.Cause?,
    repeated: Bool
  ) {
    let succeeded = request.status.map(RetryPolicy.isSuccess) ?? false
    memory.observed.observe(
      at: request.at, succeeded ? .success : .failure(retryAfter: request.retryAfter))
    if let payload = request.payload {
      memory.remember(sent: payload, acknowledged: succeeded)
    }
    memory.runCause = runCause
    memory.previousRepeated = repeated
    memory.previousStatus = request.status
  }

  // MARK: Timing (R3.2, R4.1, R4.2)

  /// A send before the earliest `next` this SDK allows: a note when a cause the server cannot
  /// see explains it, else a violation.
  static func timing(
    _ request: JudgedRequest, next: NextSend, profile: SDKProfile, memory: JudgeMemory,
    repeated: Bool
  ) -> Finding {
    let observed = memory.observed
    let wait = observed.lastAttemptAt.map { request.at - $0 } ?? 0
    let waited = Finding.interval(wait)
    if let gate = next.retryAfterUntil, request.at < gate - tolerance {
      // Neither a background send (Android keeps the gate) nor a relaunch (iOS stores the
      // date) explains this.
      return Finding(
        code: .retryAfterIgnored, rule: "R4.2",
        message:
          "sent \(waited) after the answer before; the server's Retry-After asked for \(Finding.interval(observed.lastAttemptAt.map { gate - $0 } ?? 0))",
        severity: .violation)
    }
    if let explained = explanation(
      request, next: next, profile: profile, memory: memory, repeated: repeated,
      waited: waited)
    {
      return explained
    }
    if let previous = memory.runCause {
      // A cause that cannot repeat explains the first early send of a run, not the rest.
      let run =
        previous == .relaunch
        ? "a relaunch explains one early send; an app relaunched every few seconds is crash-looping"
        : previous.repeats
          ? "a \(previous.words) explains an early send that carries a change, and this one carries none since the send before"
          : "a \(previous.words) explains one early send, not a run of them"
      return Finding(
        code: observed.failures == 0 ? .throttleViolated : .retryTooSoon, rule: next.rule,
        message:
          "sent \(waited) after the one before, which was already early: \(run) (\(next.why))",
        severity: .violation)
    }
    let failures = observed.failures
    if failures == 0 {
      return Finding(
        code: .throttleViolated, rule: next.rule,
        message: "sent \(waited) after the registration before; \(next.why)",
        severity: .violation)
    }
    if failures >= 2, let lastWait = observed.lastWait, abs(wait - lastWait) <= tolerance {
      return Finding(
        code: .retryLadderBroken, rule: next.rule,
        message:
          "the wait after failure \(failures) (\(waited)) did not grow from the one before; \(next.why)",
        severity: .violation)
    }
    return Finding(
      code: .retryTooSoon, rule: next.rule,
      message: "retried \(waited) after failure \(failures); \(next.why)", severity: .violation)
  }

  /// The cause, if any, that lets a correct SDK of this kind send this early.
  static func explanation(
    _ request: JudgedRequest, next: NextSend, profile: SDKProfile, memory: JudgeMemory,
    repeated: Bool, waited: String
  ) -> Finding? {
    guard request.payload != nil else { return nil }
    if let cause = Finding.Cause.earlySend(of: profile) {
      // Both send a pending change early, never the record the server acknowledged (its
      // hash is equal); a relaunch explains only the first early send of a run.
      // Within a run, only a cause that repeats explains more, and only a send that carries
      // a change since the one before (the same body again is a retry loop).
      let changed =
        request.payload.map { payload in
          memory.lastSent.map { !$0.isSameRecord(as: payload) } ?? true
        } ?? false
      guard !repeated, memory.runCause == nil || (cause.repeats && changed) else { return nil }
      let update = request.payload.flatMap { Self.update(from: memory.lastSent, to: $0) }
      return Finding(
        code: cause.code, rule: next.rule,
        message: "sent \(waited) after the one before: \(cause.explanation(update: update))",
        severity: .note, cause: cause)
    }
    switch profile.schedule {
    case .throttleAlarm, .interval:
      return nil
    case .window:
      // Held to the documented contract because the User-Agent is not a shipped SDK's; the
      // shipped SDK of the body's platform may still allow it.
      guard memory.runCause == nil || memory.runCause == .platformSchedule,
        let platform = request.payload?.platform.flatMap(Platform.init(wireName:))
      else { return nil }
      let shipped: SDKProfile = platform == .android ? .android : .ios
      guard let theirs = shipped.earliestNext(after: memory.observed),
        request.at >= theirs.at - tolerance
      else { return nil }
      return Finding(
        code: .platformSchedule, rule: next.rule,
        message:
          "sent \(waited) after the one before: early for the documented contract (\(next.why)), but the shipped \(platform.rawValue) SDK sends this (\(theirs.why)). The User-Agent is not a shipped SDK's: was it changed?",
        severity: .note, cause: .platformSchedule)
    }
  }

  // MARK: R3.4

  /// The record the server already acknowledged, sent again, not early. A lost answer explains
  /// one resend; a run of them is the same body hammered (one sent early is the timing's
  /// finding).
  static func repeatedRecord(_ request: JudgedRequest, memory: JudgeMemory) -> Finding {
    let afterSuccess = memory.previousStatus.map(RetryPolicy.isSuccess) ?? false
    if memory.previousRepeated && afterSuccess {
      return Finding(
        code: .unchangedResent, rule: "R3.4",
        message:
          "the same record the server acknowledged was sent again, and again: no SDK resends a record whose hash is unchanged; something outside the SDK is posting it",
        severity: .violation)
    }
    return Finding(
      code: .unchangedResent, rule: "R3.4",
      message:
        afterSuccess
        ? "the same record the server acknowledged was sent again: possibly a lost answer (the app never heard the 2xx and retried)"
        : "a record the server acknowledged earlier was sent again after a failed send: possibly a lost answer",
      severity: .note, cause: .lostAnswer)
  }

  // MARK: Content (R6.3, R2.5, S5, R2.4)

  /// Keys from the app, escaped, the first few named and the rest counted: a registration of
  /// 8,000 attributes makes a finding of a line, not of 100 KB kept in every timeline entry.
  static func names(_ keys: [String]) -> String {
    RegistrationVerdict.list(
      keys.prefix(RegistrationVerdict.named).map(TerminalText.escaped), total: keys.count)
  }

  /// What S5 costs, in the words every finding of it uses.
  static let wholeRegistrationLost =
    "processing rejects the whole registration after its 201 (S5): its contact key, push token, tags and every other attribute are lost with it"

  /// S5 for attributes the table lacks. With the tenant's own table the fix is in the
  /// tenant: the set named, and where to add them.
  static func undefinedFinding(_ undefined: [String], set: String?) -> Finding {
    guard let set = set.map(TerminalText.escaped) else {
      return Finding(
        code: .undefinedAttribute, rule: "S5",
        message:
          "not in the app's attribute set: \(Self.names(undefined)), so \(Self.wholeRegistrationLost)",
        severity: .warning)
    }
    return Finding(
      code: .undefinedAttribute, rule: "S5",
      message:
        "not in the tenant's \(set): \(Self.names(undefined)), so \(Self.wholeRegistrationLost)",
      severity: .warning,
      fix:
        "add \(Self.names(undefined)) to \(set) in Contact Builder, or stop sending \(undefined.count == 1 ? "it" : "them")"
    )
  }

  static func content(_ payload: RegistrationPayload, profile: SDKProfile, server: ServerFacts)
    -> [Finding]
  {
    let definedAttributes = server.definedAttributes
    var findings: [Finding] = []
    let missing = RequiredFields.missing(in: payload)
    if !missing.isEmpty {
      findings.append(
        Finding(
          code: .missingRequired, rule: "R6.3",
          message: "missing \(missing.joined(separator: ", "))", severity: .violation))
    }
    let keys = (payload.attributes ?? []).map(\.key)
    let reserved = keys.filter {
      InputRules.isReservedAttributeKey($0, alsoReserved: profile.extraReservedAttributeKeys)
    }
    let undefinedAll = ProcessingRules.undefinedAttributes(payload, defined: definedAttributes)
    if !reserved.isEmpty {
      // A reserved key the table lacks costs more than the key: processing rejects the whole
      // registration for it (S5), and the one finding must say so.
      let rejecting = reserved.filter(undefinedAll.contains)
      let lost =
        rejecting.isEmpty
        ? ""
        : "; \(Self.names(rejecting)) \(rejecting.count == 1 ? "is" : "are") not in the app's attribute set either, so \(Self.wholeRegistrationLost)"
      findings.append(
        Finding(
          code: .reservedAttribute, rule: "R2.5",
          message:
            "attribute keys reserved for the SDK: \(Self.names(reserved))\(lost)",
          severity: .violation, fix: FindingFix.reservedAttribute(reserved)))
    }
    let undefined = undefinedAll.filter { !reserved.contains($0) }
    if !undefined.isEmpty {
      findings.append(undefinedFinding(undefined, set: server.demographicsSet))
    }
    if let key = payload.subscriberKey, InputRules.isGenericContactKey(key) {
      findings.append(
        Finding(
          code: .genericContactKey, rule: "R2.4",
          message:
            "\"\(TerminalText.escaped(key))\" is not unique: every device using it shares one contact",
          severity: .warning))
    }
    return findings
  }

  // MARK: Contacts (R8.2, R8.3)

  /// A contact key that changed from the one the server *accepted*, and the orphan it makes.
  /// A registration the server refused (a non-2xx, or one processing will reject) made no
  /// contact, so changing away from it orphans nothing.
  static func contactKey(
    _ request: JudgedRequest, payload: RegistrationPayload, memory: inout JudgeMemory,
    server: ServerFacts
  ) -> [Finding] {
    guard request.status.map(RetryPolicy.isSuccess) == true,
      ProcessingRules.refusal(payload, definedAttributes: server.definedAttributes) == nil
    else { return [] }
    let key = ProcessingRules.contactKey(payload)
    let before = memory.acceptedContact
    // S3: without a key the server keeps the device's contact, or makes one up.
    memory.acceptedContact = key.map { .key($0) } ?? before ?? .madeUp
    guard let key, let before, before != .key(key) else { return [] }
    switch before {
    case .key(let old):
      let orphan =
        server.contactStillHasOtherDevices(old)
        ? "\"\(TerminalText.escaped(old))\" keeps its other devices"
        : "\"\(TerminalText.escaped(old))\" has no device left and is orphaned (still billed)"
      return [
        Finding(
          code: .contactKeyChanged, rule: "R8.3",
          message: "contact key changed to \"\(TerminalText.escaped(key))\": \(orphan)",
          severity: .warning)
      ]
    case .madeUp:
      return [
        Finding(
          code: .contactKeyChanged, rule: "R8.2",
          message:
            "the server accepted this device without a contact key, then as \"\(TerminalText.escaped(key))\": the contact it made up is orphaned (still billed)",
          severity: .warning)
      ]
    }
  }
}
