import EngagementCore
import Foundation
import RegistrationCore

/// How a step ended.
public enum QAVerdict: String, Sendable, Codable {
  case pass, fail
  case timedOut = "timed out"
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
  public static func decide(
    _ expectation: QAExpectation, device: DeviceWatch.Device, since: Int, runStart: Int
  ) -> Decision? {
    let new = Array(recent(device, after: since))
    switch expectation {
    case .registration:
      return new.first.map { Decision(verdict: .pass, evidence: [line($0)]) }
    case .noViolation:
      let violating = recent(device, after: runStart).filter {
        $0.findings.contains { $0.severity == .violation }
      }
      return Decision(
        verdict: violating.isEmpty ? .pass : .fail,
        evidence: violating.isEmpty
          ? ["\(device.registrationCount - runStart) registrations, none with a violation"]
          : violating.map(line))
    case .retriesKeepMinimum:
      // Decided when a failed registration is followed by one that succeeded.
      guard let failed = new.firstIndex(where: { !isSuccess($0) }),
        let recovered = new[failed...].firstIndex(where: isSuccess)
      else { return nil }
      let ladder = Array(new[failed...recovered])
      let broken = ladder.filter { $0.findings.contains { $0.severity == .violation } }
      return Decision(verdict: broken.isEmpty ? .pass : .fail, evidence: ladder.map(line))
    case .retryAfterRespected:
      guard let answered = new.firstIndex(where: { $0.retryAfter != nil }),
        answered + 1 < new.count
      else { return nil }
      let next = new[answered + 1]
      let ignored = next.findings.contains { $0.code == "retryAfterIgnored" }
      return Decision(
        verdict: ignored ? .fail : .pass, evidence: [line(new[answered]), line(next)])
    case .tokenReturned:
      // Over the whole run: decided once a request after the first could have sent it back.
      let inRun = Array(recent(device, after: runStart))
      guard let returned = device.tokenReturned, !inRun.isEmpty else { return nil }
      return Decision(
        verdict: returned ? .pass : .fail,
        evidence: [
          returned
            ? "the subscriber token came back on every request after the first"
            : "a request came without the subscriber token the app was given"
        ] + inRun.suffix(3).map(line))
    case .bodyHas(let tags, let attributes):
      guard let carrying = new.last(where: { carries($0, tags: tags, attributes: attributes) }),
        carries(carrying, tags: tags, attributes: attributes)
      else { return nil }
      return Decision(verdict: .pass, evidence: [line(carrying)])
    }
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
