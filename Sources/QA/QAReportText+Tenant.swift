import EngagementCore
import RegistrationCore

extension QAReportText {
  /// "Did it arrive?" in the report (`--tenant` with `--upstream`): each read-back the run
  /// saw, as evidence beside the steps, and one still waiting when the run ended. Evidence
  /// only: a plan's verdict is its steps'.
  static func tenantLines(_ report: QAReport) -> [String] {
    guard let device = report.device, !device.readBacks.isEmpty || device.readBackDue != nil
    else { return [] }
    var lines = ["", "## The tenant: did it arrive?", ""]
    lines += device.readBacks.map {
      "    " + CaptureText.stamp(Instant($0.askedAt)) + "  " + $0.summary
    }
    if let due = device.readBackDue {
      lines.append(
        report.interrupted
          ? "    the next read-back was due at \(CaptureText.stamp(due)); the run was stopped first"
          : "    the next read-back was due at \(CaptureText.stamp(due)), after the run ended: --read-back-after asks sooner (the tenant's processing takes 5 to 15 minutes)"
      )
    }
    return lines
  }
}
