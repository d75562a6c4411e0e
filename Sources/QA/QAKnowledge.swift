import EngagementCore
import Foundation
import RegistrationCore

/// What a run knows of the app's state that the server cannot see: while an ask with
/// `app: stays-open` holds (from its start until the next ask), the tester kept the app open
/// and in the foreground. Then neither a relaunch (iOS) nor a trip to the background (Android)
/// explains a send earlier than the SDK allows, and the judge's note that blames one is, in
/// this run, a violation: the plan itself rules the cause out.
public struct QAKnowledge: Sendable, Hashable {
  /// A span of time in which the app stayed open, and the ask that said so.
  public struct OpenSpan: Sendable, Hashable {
    public var step: Int
    public var start: Instant
    /// Nil while it lasts.
    public var end: Instant?

    func holds(at instant: Instant) -> Bool {
      instant >= start && end.map { instant < $0 } ?? true
    }
  }

  public var openSpans: [OpenSpan] = []

  public init(openSpans: [OpenSpan] = []) { self.openSpans = openSpans }

  /// An ask begins: any span before it ends, and one opens if the ask keeps the app open.
  mutating func ask(_ step: QAStep, at now: Instant) {
    close(at: now)
    if step.keepsAppOpen { openSpans.append(OpenSpan(step: step.number, start: now)) }
  }

  mutating func close(at now: Instant) {
    if let last = openSpans.indices.last, openSpans[last].end == nil {
      openSpans[last].end = now
    }
  }

  /// The causes an open app rules out.
  static let ruledOut: Set<Finding.Cause> = [.relaunch, .background]

  /// The registration's findings as this run judges them: an early send the judge explained
  /// by a relaunch or a trip to the background, sent while the app stayed open, is the
  /// timing violation it would otherwise be.
  public func findings(of entry: WatchedRegistration) -> [Finding] {
    guard let span = openSpans.first(where: { $0.holds(at: entry.at) }) else {
      return entry.findings
    }
    return entry.findings.map { finding in
      guard finding.severity == .note, let cause = finding.cause, Self.ruledOut.contains(cause)
      else { return finding }
      let waited =
        entry.interval.map { "sent \(Finding.interval($0)) after the one before" }
        ?? "sent early"
      return Finding(
        code: finding.rule.hasPrefix("R4") ? .retryTooSoon : .throttleViolated, rule: finding.rule,
        message:
          "\(waited), while step \(span.step) had the tester keep the app open: with no relaunch and no trip to the background, no correct SDK sends this early (alone, the judge would have noted it as \(finding.code), a \(cause == .relaunch ? "relaunch" : "background send"))",
        severity: .violation)
    }
  }
}
