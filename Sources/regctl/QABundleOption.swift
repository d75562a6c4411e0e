import ArgumentParser
import DebugBundle
import Foundation
import QA
import RegistrationCore
import Session
import SessionHTTP
import ToolSupport

/// `regctl qa --bundle FILE` (#54): the run's debug bundle, written at its end whatever the
/// verdict (passed, failed, stopped), its report inside.
struct QABundleOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "At the end of the run, pass or fail, write a debug bundle (a zip: every device's verdict, the capture, this report) to this file.",
      valueName: "file"))
  var bundle: String?

  @Flag(
    help:
      "With --bundle: replace contact keys, device ids, push tokens and attribute values with keyed hashes."
  )
  var redact = false

  @Flag(help: "With --bundle: replace the file when it exists.")
  var forceBundle = false

  func validate() throws {
    if bundle == nil && (redact || forceBundle) {
      throw ValidationError("--redact and --force-bundle go with --bundle")
    }
    if let bundle, let problem = BundleTarget.problem(bundle, force: forceBundle) {
      throw ValidationError("--bundle \(problem)")
    }
  }

  /// Written once the receiver has stopped (its capture whole); a bundle that cannot be made
  /// or written is said,
  /// and fails the run (exit 1), as a report that cannot be written does.
  func write(session: ReceiverSession, report: QAReport, say: @Sendable (String) -> Void)
    async -> Bool
  {
    guard let bundle else { return true }
    guard var material = await ReceiverBundles.material(session, deviceID: nil) else {
      return true
    }
    material.qaReports.append(
      NamedFile(name: "qa-report.md", bytes: Array(QAReportText.markdown(report).utf8)))
    material.qaReports.append(
      NamedFile(name: "qa-report.xml", bytes: Array(QAReportText.junit(report).utf8)))
    do {
      let made = try BundleMaker.make(material, redact: redact)
      try BundleTarget.write(
        made.zip, to: bundle, force: forceBundle,
        protected: ReceiverBundles.protectedFiles(session))
      say(
        "bundle: \(TerminalText.escaped(bundle)) (\(made.deviceCount) device\(made.deviceCount == 1 ? "" : "s"), \(made.files.count) files\(redact ? ", redacted" : ""))"
      )
      return true
    } catch {
      Output.error("regctl qa: --bundle: \(error)")
      return false
    }
  }
}
