import DebugBundle
import EngagementCore
import Foundation
import HAR
import RegistrationCore
import Session

/// `regscope --open FILE` (#54): a debug bundle's capture judged again with the bundle's own
/// demographics table, in the receiver's layout, read-only and offline; the header says where
/// and when the bundle was made.
extension RegScope {
  static func openedBundle(_ path: String) throws -> OpenedJob {
    let bundle = try BundleReader.open(path)
    guard let capture = bundle.capture else {
      throw BundleError(
        .notABundle,
        "\(TerminalText.escaped(path)) holds no capture to show (its README.md says what it holds)"
      )
    }
    let defined = bundle.definedAttributes
    let judge = try HARReader.judge(
      sources: [.document(name: path + ":" + DebugBundle.capturePath, bytes: Data(capture))],
      replay: FieldReplay(definedAttributes: defined), definedAttributes: defined)
    let warnings =
      bundle.changed.isEmpty
      ? []
      : [
        "\(bundle.changed.count) file\(bundle.changed.count == 1 ? "" : "s") of the bundle differ from its manifest (changed since it was made): \(bundle.changed.prefix(3).joined(separator: ", "))"
      ]
    return OpenedJob(
      session: BundleSession(judge, source: bundle.described),
      title: "\(bundle.described) (read-only)", warnings: warnings, hasLocalServer: false)
  }
}
