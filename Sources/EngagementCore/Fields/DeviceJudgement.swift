import RegistrationCore

/// What the watch holds of a device beside its fields: every violation and warning it was
/// found with (the codes its summary and a CI gate count), and the answers that took nothing
/// in. The explanation (`/explain`, the Fields pane, MCP, `regctl judge --explain`) is told
/// from these and the field stories together, so it can never leave out what the findings say
/// or call accepted what was refused.
public struct DeviceJudgement: Sendable, Encodable {
  /// One code the device was found with: how many registrations had it, the worst severity,
  /// and the newest message and fix the timeline still keeps.
  public struct Found: Sendable, Encodable {
    public var code: FindingCode
    public var severity: Finding.Severity
    public var rule: String?
    public var count: Int
    public var message: String?
    public var fix: String?
  }

  /// Violations first, then warnings; a code once a note and later a violation is a violation.
  public var findings: [Found]
  /// Sends of the app (refusals aside) among the newest the timeline keeps, and how many of
  /// them got no 2xx: an injected fault, a relay that could not reach the tenant, no answer.
  public var sends: Int
  public var failedSends: Int
  /// The statuses of those failures, in order of first appearance ("503", "no answer").
  public var failures: [String]
  /// Whether the newest send was one of them: its change is not on the server yet.
  public var newestFailed: Bool
  /// Requests refused before a registration was read (S1), the newest with its reason and fix.
  public var refusedCount: Int
  public var refusalStatus: Int?
  /// The newest refusal's reason and fix: "... . Fix: ...".
  public var refusal: String?
  /// Whether the newest request was refused.
  public var newestRefused: Bool

  public init(_ device: DeviceWatch.Device) {
    let kept = device.registrations
    var found: [Found] = []
    for (code, severities) in device.codeSeverities where code != .refused {
      guard let worst = [Finding.Severity.violation, .warning].first(where: severities.contains)
      else { continue }
      let newest = kept.reversed().lazy.flatMap(\.findings).first {
        $0.code == code && $0.severity == worst
      }
      found.append(
        Found(
          code: code, severity: worst, rule: newest?.rule, count: device.findingCounts[code] ?? 1,
          message: newest?.message, fix: newest?.fix))
    }
    findings = found.sorted {
      ($0.severity == .violation ? 0 : 1, $0.code.rawValue)
        < ($1.severity == .violation ? 0 : 1, $1.code.rawValue)
    }
    let sent = kept.filter { !$0.refused }
    let failed = sent.filter { !($0.status.map(RetryPolicy.isSuccess) ?? false) }
    sends = sent.count
    failedSends = failed.count
    var statuses: [String] = []
    for entry in failed {
      let status = entry.status.map { "\($0)" + (entry.local ? " (RegScope's relay)" : "") }
      let word = status ?? "no answer"
      if !statuses.contains(word) { statuses.append(word) }
    }
    failures = statuses
    newestFailed = sent.last.map { !($0.status.map(RetryPolicy.isSuccess) ?? false) } ?? false
    refusedCount = device.refusedCount
    refusalStatus = device.lastRefusal?.status
    refusal = device.lastRefusal.map {
      "\(TerminalText.escaped($0.reason)). Fix: \(TerminalText.escaped($0.fix))"
    }
    newestRefused = kept.last?.refused ?? false
  }
}
