import EngagementCore
import Foundation
import RegistrationCore

/// How a step ended.
public enum QAVerdict: String, Sendable, Codable {
  case pass, fail
  case timedOut = "timed out"
  /// The run was stopped (Ctrl-C) while the step ran, before it was decided: its evidence is
  /// what it had seen.
  case interrupted
  /// The run was stopped (Ctrl-C) before the step began.
  case notRun = "not run"
}

/// Decides an expectation on what the watch holds of the device now. Pure: the runner asks again
/// after each change, until it answers or the step's time is up.
public enum QAJudge {
  /// A decided expectation: its verdict and the registrations that decided it.
  public struct Decision: Sendable {
    public var verdict: QAVerdict
    public var evidence: [String]
  }

  /// `since`: how many registrations the device had when the step's window began (the ask or
  /// fault before it; 0 when it was not yet seen); `runStart` the same when the plan began.
  /// Nil: not decided yet. `gate` decides which findings fail `no-violation` (`--fail-on`,
  /// `--allow`); `knowledge` is what the plan knows of the app's state (`QAKnowledge`).
  public static func decide(
    _ expectation: QAExpectation, device: DeviceWatch.Device, since: Int, runStart: Int,
    gate: FindingGate = FindingGate(), knowledge: QAKnowledge = QAKnowledge()
  ) -> Decision? {
    let new = Array(recent(device, after: since))
    let line = { (entry: WatchedRegistration) in Self.line(entry, knowledge) }
    switch expectation {
    case .registration:
      // A refused request (a wrong token or app) is no registration: the app is not set up.
      return new.first(where: { !$0.refused }).map {
        Decision(verdict: .pass, evidence: [line($0)])
      }
    case .noViolation:
      let violating = recent(device, after: runStart).filter {
        knowledge.findings(of: $0).contains(where: gate.fails)
      }
      guard !violating.isEmpty else {
        let count = device.registrationCount - runStart
        return Decision(
          verdict: .pass,
          evidence: ["\(count) registration\(count == 1 ? "" : "s"), none with a violation"])
      }
      let what = gate.threshold == .warning ? "a violation or a warning" : "a violation"
      return failure(
        expected: "no registration of the run with \(what)"
          + (gate.allowed.isEmpty
            ? "" : " (allowed: \(gate.allowed.sorted().map(\.rawValue).joined(separator: ", ")))"),
        actual: "\(violating.count) with \(what)", Array(violating), knowledge)
    case .retriesKeepMinimum:
      // Decided when a failed registration is followed by one that succeeded.
      guard let failed = new.firstIndex(where: { !isSuccess($0) }),
        let recovered = new[failed...].firstIndex(where: isSuccess)
      else { return nil }
      let ladder = Array(new[failed...recovered])
      let broken = ladder.filter {
        knowledge.findings(of: $0).contains { $0.severity == .violation }
      }
      guard !broken.isEmpty else { return Decision(verdict: .pass, evidence: ladder.map(line)) }
      return failure(
        expected: "each retry no sooner than the SDK's minimum after the failure before",
        actual: "\(broken.count) of \(ladder.count) sends broke it", ladder, knowledge)
    case .retryAfterRespected:
      guard let answered = new.firstIndex(where: { $0.retryAfter != nil }),
        answered + 1 < new.count
      else { return nil }
      let next = new[answered + 1]
      let ignored = next.findings.contains { $0.code == .retryAfterIgnored }
      guard ignored else {
        return Decision(verdict: .pass, evidence: [line(new[answered]), line(next)])
      }
      let wait = new[answered].retryAfter ?? 0
      let waited = next.at - new[answered].at
      return failure(
        expected:
          "the next send at least \(Finding.interval(wait)) after the answer that asked it (Retry-After)",
        actual:
          "sent \(Finding.interval(waited)) after that answer, \(Finding.interval(wait - Finding.shownSeconds(waited))) too soon",
        [new[answered], next], knowledge)
    case .tokenReturned:
      return tokenReturned(
        device, window: new.count, run: recent(device, after: runStart).count, knowledge)
    case .bodyHas(let tags, let attributes):
      return carryingAll(new, tags: tags, attributes: attributes, knowledge)
    case .upgradeKeepsData:
      return upgradeKeepsData(new, knowledge)
    case .arrived:
      return arrived(device, new: new, knowledge)
    }
  }

  /// Decided by the first registration of the step that names a new SDK version.
  static func upgradeKeepsData(_ new: [WatchedRegistration], _ knowledge: QAKnowledge)
    -> Decision?
  {
    guard
      let upgraded = new.first(where: { entry in
        entry.changes.contains { $0.hasPrefix(PayloadDiff.upgradePrefix) }
      })
    else { return nil }
    guard let lost = upgraded.findings.first(where: { $0.code == .sdkUpgradeLostData }) else {
      return Decision(verdict: .pass, evidence: [line(upgraded, knowledge) + ", the record kept"])
    }
    return failure(
      expected: "the registration after the upgrade carrying the tags and attributes before it",
      actual: lost.message + (lost.fix.map { " Fix: \($0)" } ?? ""), [upgraded], knowledge)
  }

  /// Decided once a request of the window came after a 2xx had handed the token out: every
  /// such request must carry it. A correct SDK sends nothing after its last change went out,
  /// so a plan asks for a change before this step (the built-in retry-ladder does). One of
  /// the run that came without it fails the step at once.
  static func tokenReturned(
    _ device: DeviceWatch.Device, window: Int, run: Int, _ knowledge: QAKnowledge
  ) -> Decision? {
    guard device.tokenHandedOut else { return nil }
    let kept = device.registrations
    // The timeline keeps the newest few: a device with older ones dropped had its 2xx among
    // them (it was handed out).
    var handedOut = device.registrationCount > kept.count
    var due: [WatchedRegistration] = []
    var dueInRun: [WatchedRegistration] = []
    for (index, entry) in kept.enumerated() {
      if handedOut && !entry.refused {
        if index >= kept.count - window { due.append(entry) }
        if index >= kept.count - run { dueInRun.append(entry) }
      }
      if !entry.refused && isSuccess(entry) { handedOut = true }
    }
    let lines = { (entries: [WatchedRegistration]) in
      entries.map { line($0, knowledge) + "  " + tokenWords($0) }
    }
    if device.identity.profile.name == .documented {
      // Only the shipped SDKs keep and send back the token (SDK-FACTS, "The request"): a
      // client held to the documented contract owes none.
      guard !due.isEmpty else { return nil }
      return Decision(
        verdict: .pass,
        evidence: [
          "not owed: the documented contract sends no X-Subscriber-Token (the shipped SDKs do); the User-Agent names no shipped SDK"
        ] + lines(Array(due.suffix(3))))
    }
    let without = dueInRun.filter { !$0.subscriberTokenSent }
    if !without.isEmpty || (device.tokenReturned == false && !due.isEmpty) {
      return Decision(
        verdict: .fail,
        evidence: [
          "expected: the X-Subscriber-Token a 2xx handed out, on every request after it",
          without.isEmpty
            ? "actual: a request came with a token other than the one handed out"
            : "actual: \(without.count) of \(dueInRun.count) requests after it came without it",
          "fix: let the SDK send its requests: it keeps the X-Subscriber-Token of a 2xx and sends it back; a request built outside it, or a store cleared between launches, loses it",
        ] + lines(without.isEmpty ? due : without))
    }
    guard !due.isEmpty else { return nil }
    return Decision(
      verdict: .pass,
      evidence: ["the subscriber token came back on every request after the 2xx that handed it out"]
        + lines(Array(due.suffix(3))))
  }

  static func tokenWords(_ entry: WatchedRegistration) -> String {
    entry.subscriberTokenSent ? "(X-Subscriber-Token sent)" : "(no X-Subscriber-Token)"
  }

  /// What the judge can say when a step's time is up undecided: a decision, or a reason the
  /// tester can act on. A correct SDK sends nothing once its last change went out (a `--yes`
  /// run makes no change), so an app silent after the 2xx that handed the token out owes no
  /// token: nothing was sent that could have carried it.
  public static func atDeadline(
    _ expectation: QAExpectation, device: DeviceWatch.Device, knowledge: QAKnowledge = QAKnowledge()
  ) -> (decision: Decision?, why: String?) {
    if case .arrived = expectation { return (nil, arrivedUndecided(device)) }
    guard case .tokenReturned = expectation else { return (nil, nil) }
    guard device.tokenHandedOut else {
      return (nil, "no 2xx handed the app a subscriber token")
    }
    // Over every request kept, not only the step's: one after the 2xx without the token
    // fails, and all with it pass.
    let kept = device.registrations.count
    if let decision = tokenReturned(device, window: kept, run: kept, knowledge) {
      return (decision, nil)
    }
    return (
      Decision(
        verdict: .pass,
        evidence: [
          "owed on no request: the app sent nothing after the 2xx that handed the token out, as a correct SDK does once its change went out (the ask before this step asks for a change, to show the token come back)"
        ]), nil
    )
  }

  /// The first registration after the step began that carries any of them must carry them
  /// all, and be sent when its SDK allows; nil until one carries any.
  static func carryingAll(
    _ new: [WatchedRegistration], tags: [String], attributes: [String: String?],
    _ knowledge: QAKnowledge
  ) -> Decision? {
    // The first registration that carries any of them must carry them all: two changes
    // sent one by one are not one registration (R3.3).
    guard
      let first = new.first(where: {
        carriesAny($0, tags: tags, attributes: attributes)
          || carries($0, tags: tags, attributes: attributes)
      })
    else { return nil }
    let wanted = (tags.map { "tag \($0)" } + attributes.keys.sorted().map { "attribute \($0)" })
    let involved = Array(
      new.prefix { $0.at <= first.at } + new.drop { $0.at <= first.at }.prefix(2))
    guard carries(first, tags: tags, attributes: attributes) else {
      let held = wanted.filter { item in
        item.hasPrefix("tag ")
          ? carries(first, tags: [String(item.dropFirst(4))], attributes: [:])
          : carries(
            first, tags: [],
            attributes: [String(item.dropFirst(10)): attributes[String(item.dropFirst(10))] ?? nil])
      }
      return failure(
        expected: "one registration carrying " + wanted.joined(separator: " and "),
        actual: "the first to carry any carried only " + held.joined(separator: " and "),
        involved, knowledge)
    }
    // Together, but sent before the SDK allows: they travelled together because something
    // outside the SDK posted them, not by its throttle (R3.2).
    if let early = knowledge.findings(of: first).first(where: {
      $0.severity == .violation && timingCodes.contains($0.code)
    }) {
      return failure(
        expected: "one registration carrying " + wanted.joined(separator: " and ")
          + ", sent when the SDK allows",
        actual: "the one that carried them was sent early: " + early.message, involved, knowledge)
    }
    return Decision(
      verdict: .pass,
      evidence: [line(first, knowledge) + "  carrying " + wanted.joined(separator: " and ")])
  }

  /// The findings that say a send came before its SDK allows.
  static let timingCodes: Set<FindingCode> = [
    .throttleViolated, .retryTooSoon, .retryLadderBroken, .retryAfterIgnored,
  ]

  /// A failed expectation, as a ticket needs it: what was expected, what came instead, and
  /// each registration involved with its findings' messages and fixes.
  static func failure(
    expected: String, actual: String, _ entries: [WatchedRegistration],
    _ knowledge: QAKnowledge = QAKnowledge()
  ) -> Decision {
    Decision(
      verdict: .fail,
      evidence: ["expected: \(expected)", "actual: \(actual)"]
        + entries.flatMap { detailed($0, knowledge) })
  }

  /// A registration's line and, under it, each finding's message and fix.
  public static func detailed(
    _ entry: WatchedRegistration, _ knowledge: QAKnowledge = QAKnowledge()
  ) -> [String] {
    [line(entry, knowledge)]
      + knowledge.findings(of: entry).flatMap { finding in
        ["    \(finding.code) (\(finding.severity.rawValue), \(finding.rule)): \(finding.message)"]
          + (finding.fix.map { ["      fix: \($0)"] } ?? [])
      }
  }

  static func carriesAny(
    _ entry: WatchedRegistration, tags: [String], attributes: [String: String?]
  ) -> Bool {
    tags.contains { carries(entry, tags: [$0], attributes: [:]) }
      || attributes.contains { carries(entry, tags: [], attributes: [$0.key: $0.value]) }
  }

  /// The registrations after the first `count` of the device (as many as the watch keeps).
  static func recent(_ device: DeviceWatch.Device, after count: Int) -> ArraySlice<
    WatchedRegistration
  > {
    let newer = max(0, device.registrationCount - count)
    return device.registrations.suffix(newer)
  }

  static func isSuccess(_ entry: WatchedRegistration) -> Bool {
    entry.status.map(RetryPolicy.isSuccess) ?? false
  }

  static func carries(_ entry: WatchedRegistration, tags: [String], attributes: [String: String?])
    -> Bool
  {
    guard case .success(let payload) = WireDecoding.payload(from: Data(entry.body.utf8)) else {
      return false
    }
    let sentTags = Set(payload.tags ?? [])
    let sentAttributes = Dictionary(
      (payload.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    return tags.allSatisfy(sentTags.contains)
      && attributes.allSatisfy { key, value in
        guard let sent = sentAttributes[key] else { return false }
        return value.map { $0 == sent } ?? true
      }
  }

  /// One registration as evidence, as the receiver's timeline shows it: when, the interval,
  /// the answer, what it changed (tags, attributes, contact key), and its findings as this
  /// run judges them: "2026-11-25 12:30:07.000Z  +1 min 1 s  201  + tags qa-a; + tags qa-b".
  public static func line(_ entry: WatchedRegistration, _ knowledge: QAKnowledge = QAKnowledge())
    -> String
  {
    let findings = knowledge.findings(of: entry).map { "\($0.code) (\($0.severity.rawValue))" }
    return
      ([
        CaptureText.stamp(entry.at), CaptureText.interval(entry),
        entry.status.map(String.init) ?? "no answer",
      ] + [CaptureText.retryAfter(entry), CaptureText.changed(entry)].compactMap { $0 } + findings)
      .joined(separator: "  ")
  }
}
