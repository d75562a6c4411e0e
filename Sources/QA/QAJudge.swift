import EngagementCore
import Foundation
import RegistrationCore

/// How a step ended.
public enum QAVerdict: String, Sendable, Codable {
  case pass, fail
  case timedOut = "timed out"
  /// The run was stopped (Ctrl-C) before the step was decided, or before it began.
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

  /// `since`: how many registrations the device had when the step began (0 when it was not yet
  /// seen); `runStart` the same when the plan began. Nil: not decided yet.
  /// `gate` decides which findings fail `no-violation` (`--fail-on`, `--allow`).
  public static func decide(
    _ expectation: QAExpectation, device: DeviceWatch.Device, since: Int, runStart: Int,
    gate: FindingGate = FindingGate()
  ) -> Decision? {
    let new = Array(recent(device, after: since))
    switch expectation {
    case .registration:
      // A refused request (a wrong token or app) is no registration: the app is not set up.
      return new.first(where: { !$0.refused }).map {
        Decision(verdict: .pass, evidence: [line($0)])
      }
    case .noViolation:
      let violating = recent(device, after: runStart).filter {
        $0.findings.contains(where: gate.fails)
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
        actual: "\(violating.count) with \(what)", violating)
    case .retriesKeepMinimum:
      // Decided when a failed registration is followed by one that succeeded.
      guard let failed = new.firstIndex(where: { !isSuccess($0) }),
        let recovered = new[failed...].firstIndex(where: isSuccess)
      else { return nil }
      let ladder = Array(new[failed...recovered])
      let broken = ladder.filter { $0.findings.contains { $0.severity == .violation } }
      guard !broken.isEmpty else { return Decision(verdict: .pass, evidence: ladder.map(line)) }
      return failure(
        expected: "each retry no sooner than the SDK's minimum after the failure before",
        actual: "\(broken.count) of \(ladder.count) sends broke it", ladder)
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
          "the next send at least \(NumberText.compact(wait)) s after the answer that asked it (Retry-After)",
        actual:
          "sent \(DurationText.describe(waited.rounded())) after that answer, \(DurationText.describe((wait - waited).rounded())) too soon",
        [new[answered], next])
    case .tokenReturned:
      // Over the whole run: decided once a request after the first could have sent it back.
      let inRun = Array(recent(device, after: runStart))
      guard let returned = device.tokenReturned, !inRun.isEmpty else { return nil }
      guard returned else {
        return failure(
          expected: "the X-Subscriber-Token a 2xx handed out, on every request after it",
          actual: "a request came without it",
          inRun.suffix(3).filter { !$0.subscriberTokenSent })
      }
      return Decision(
        verdict: .pass,
        evidence: [
          "the subscriber token came back on every request after the 2xx that handed it out"
        ]
          + inRun.suffix(3).map(line))
    case .bodyHas(let tags, let attributes):
      return carryingAll(new, tags: tags, attributes: attributes)
    case .upgradeKeepsData:
      return upgradeKeepsData(new)
    }
  }

  /// Decided by the first registration of the step that names a new SDK version.
  static func upgradeKeepsData(_ new: [WatchedRegistration]) -> Decision? {
    guard
      let upgraded = new.first(where: { entry in
        entry.changes.contains { $0.hasPrefix(PayloadDiff.upgradePrefix) }
      })
    else { return nil }
    let upgrade = upgraded.changes.first { $0.hasPrefix(PayloadDiff.upgradePrefix) } ?? ""
    guard let lost = upgraded.findings.first(where: { $0.code == .sdkUpgradeLostData }) else {
      return Decision(
        verdict: .pass, evidence: [line(upgraded) + "  " + upgrade + ", the record kept"])
    }
    return failure(
      expected: "the registration after the upgrade carrying the tags and attributes before it",
      actual: lost.message + (lost.fix.map { " Fix: \($0)" } ?? ""), [upgraded])
  }

  /// The first registration after the step began that carries any of them must carry them
  /// all; nil until one carries any.
  static func carryingAll(
    _ new: [WatchedRegistration], tags: [String], attributes: [String: String?]
  ) -> Decision? {
    // The first registration that carries any of them must carry them all: two changes
    // sent one by one are not one registration (R3.3).
    guard
      let first = new.first(where: {
        carriesAny($0, tags: tags, attributes: attributes)
          || carries($0, tags: tags, attributes: attributes)
      })
    else { return nil }
    guard carries(first, tags: tags, attributes: attributes) else {
      let wanted = (tags.map { "tag \($0)" } + attributes.keys.sorted().map { "attribute \($0)" })
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
        new.prefix { $0.at <= first.at } + new.drop { $0.at <= first.at }.prefix(2))
    }
    return Decision(verdict: .pass, evidence: [line(first)])
  }

  /// A failed expectation, as a ticket needs it: what was expected, what came instead, and
  /// each registration involved with its findings' messages and fixes.
  static func failure<Entries: Sequence<WatchedRegistration>>(
    expected: String, actual: String, _ entries: Entries
  ) -> Decision {
    Decision(
      verdict: .fail,
      evidence: ["expected: \(expected)", "actual: \(actual)"] + entries.flatMap(detailed))
  }

  /// A registration's line and, under it, each finding's message and fix.
  public static func detailed(_ entry: WatchedRegistration) -> [String] {
    [line(entry)]
      + entry.findings.flatMap { finding in
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

  /// One registration as evidence.
  public static func line(_ entry: WatchedRegistration) -> String { CaptureText.line(entry) }

}
