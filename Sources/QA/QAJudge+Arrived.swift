import EngagementCore
import RegistrationCore

extension QAJudge {
  /// `expect: arrived`, decided by the tenant's read-back of a registration sent in the
  /// step's window: held as sent passes; anything else fails with the tenant's answer, once no
  /// newer registration of the device waits to be looked up (it may be the one that lands).
  /// A read-back that could not ask (no contact key, the tenant unreachable) decides nothing:
  /// the step times out saying why, never fails a correct app on RegScope's own limits.
  static func arrived(
    _ device: DeviceWatch.Device, new: [WatchedRegistration], _ knowledge: QAKnowledge
  ) -> Decision? {
    guard let first = new.first(where: { !$0.refused && isSuccess($0) }),
      let readBack = device.readBacks.last(where: { $0.registrationAt >= first.at.seconds })
    else { return nil }
    let said = CaptureText.stamp(Instant(readBack.askedAt)) + "  " + readBack.summary
    if readBack.allHeld { return Decision(verdict: .pass, evidence: [said]) }
    // Only a read that says what the tenant holds fails a step: "not read" (a shape RegScope
    // does not read) and "moved" (asked again under the newer key) decide nothing.
    guard readBack.outcome.isFailure, device.readBackDue == nil else { return nil }
    // The registration asked about, with its findings and their fixes (an undefined
    // attribute's, say), as every failed step shows what decided it.
    let asked = new.last { abs($0.at.seconds - readBack.registrationAt) < 0.001 }
    return Decision(
      verdict: .fail,
      evidence: [
        said, "expected: the tenant holds every field the app sent",
        "actual: " + readBack.headline,
      ] + (asked.map { detailed($0, knowledge) } ?? []))
  }

  /// Why an `expect: arrived` step ended undecided.
  static func arrivedUndecided(_ device: DeviceWatch.Device) -> String {
    if let due = device.readBackDue {
      return
        "the tenant's read-back was due at \(CaptureText.stamp(due)), after the step's timeout: give the step a timeout past --read-back-after"
    }
    if let last = device.readBacks.last {
      if let problem = last.problem { return problem }
      if last.outcome == .notRead { return last.summary }
    }
    return "no registration of the step's window was answered 2xx by the tenant"
  }
}

extension QAPlan {
  /// Why the plan cannot run as the receiver was started: an `expect: arrived` step needs the
  /// tenant asked (`--tenant` with `--upstream`, `readBackAfter` non-nil), and a timeout past
  /// the read-back, or it could only time out. Nil when it can run.
  public func readBackProblem(readBackAfter: Double?) -> String? {
    for step in steps {
      guard case .expect(.arrived) = step.action else { continue }
      guard let readBackAfter else {
        return
          "step \(step.number) (expect: arrived) asks the tenant whether the registration arrived: start with --tenant FILE and --upstream URL"
      }
      if let timeout = step.timeout, timeout <= readBackAfter {
        return
          "step \(step.number) (expect: arrived) times out after \(DurationText.describe(timeout)), before the tenant is asked (\(DurationText.describe(readBackAfter)) after the 2xx, --read-back-after): give it a longer timeout, or a shorter --read-back-after"
      }
    }
    return nil
  }
}
