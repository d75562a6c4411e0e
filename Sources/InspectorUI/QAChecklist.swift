import RegistrationCore

/// A QA run as the inspector shows it beside the receiver's timeline: the plan's steps with
/// their verdicts, the one running, its instruction and its countdown. A value the run posts
/// whole after each change.
public struct QAChecklist: Sendable, Hashable {
  public struct Item: Sendable, Hashable {
    public var summary: String
    /// "pass", "fail", "timed out", or nil while not ended.
    public var verdict: String?
    public var evidence: [String]

    public init(summary: String, verdict: String? = nil, evidence: [String] = []) {
      self.summary = summary
      self.verdict = verdict
      self.evidence = evidence
    }
  }

  public var plan: String
  public var items: [Item]
  /// The step running now; nil before the first and after the last.
  public var current: Int?
  /// The tester's instruction the run waits on (Enter goes on).
  public var ask: String?
  public var deadline: Instant?
  /// The earliest the device's SDK may register next, when known.
  public var nextAllowed: Instant?

  public init(plan: String, items: [Item]) {
    self.plan = plan
    self.items = items
  }

  public var finished: Bool { items.allSatisfy { $0.verdict != nil } }
}
