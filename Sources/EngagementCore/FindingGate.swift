/// What fails a CI gate on findings: the lowest severity that fails, and the codes allowed
/// whatever their severity (`--fail-on`, `--allow`; regctl judge and qa). An app that
/// registers and then logs in allows `contactKeyChanged`, for one.
public struct FindingGate: Sendable, Hashable {
  public enum Threshold: String, Sendable, Hashable, CaseIterable {
    case violation, warning, never
  }

  public var threshold: Threshold
  public var allowed: Set<FindingCode>

  public init(threshold: Threshold = .violation, allowed: Set<FindingCode> = []) {
    self.threshold = threshold
    self.allowed = allowed
  }

  /// Reads `--fail-on` and the `--allow` lists (each a code or codes separated by commas);
  /// a bad value is an error that names it and what would do.
  public static func parse(failOn: String, allow: [String]) -> Result<FindingGate, GateError> {
    guard let threshold = Threshold(rawValue: failOn) else {
      return .failure(
        GateError(
          "--fail-on \(failOn): give violation, warning or never"))
    }
    var allowed: Set<FindingCode> = []
    for text in allow.flatMap({ $0.split(separator: ",") }).map(String.init) {
      guard let code = FindingCode(rawValue: text) else {
        let known = FindingCode.allCases.map(\.rawValue).joined(separator: ", ")
        return .failure(GateError("--allow \(text): not a finding code; the codes are \(known)"))
      }
      allowed.insert(code)
    }
    return .success(FindingGate(threshold: threshold, allowed: allowed))
  }

  /// Whether `finding` fails the gate.
  public func fails(_ finding: Finding) -> Bool { fails(code: finding.code, finding.severity) }

  public func fails(code: FindingCode, _ severity: Finding.Severity) -> Bool {
    guard !allowed.contains(code) else { return false }
    switch threshold {
    case .never: return false
    case .violation: return severity == .violation
    case .warning: return severity != .note
    }
  }

  /// Whether anything `device` ever sent fails the gate.
  public func fails(_ device: DeviceWatch.Device) -> Bool {
    device.codeSeverities.contains { code, severities in
      severities.contains { fails(code: code, $0) }
    }
  }

  public struct GateError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}
