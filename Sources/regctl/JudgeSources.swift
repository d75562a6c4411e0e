import DebugBundle
import EngagementCore
import Foundation
import HAR
import RegistrationCore
import ToolSupport

/// What `regctl judge` reads: HAR files, and debug bundles (#54), whose capture inside is
/// judged as a HAR is, with the bundle's own demographics table unless one is given.
enum JudgeSources {
  static func judge(
    _ files: [String], skipUnreadable: Bool, stories: Bool, definedAttributes: Set<String>?,
    demographicsSet: String?
  ) throws -> CaptureJudge {
    var sources: [HARSource] = []
    var defined = definedAttributes
    let tableGiven = definedAttributes != nil || demographicsSet != nil
    for file in files {
      guard BundleReader.isBundle(file) else {
        sources.append(.file(file))
        continue
      }
      let bundle = try BundleReader.open(file)
      guard let capture = bundle.capture else {
        throw BundleError(
          .notABundle,
          "\(TerminalText.escaped(file)) holds no capture to judge (its README.md says what it holds)"
        )
      }
      // Said on stderr: stdout is the report, or JSON a device a line.
      Output.error("judging the capture in the \(TerminalText.escaped(bundle.described))")
      if !bundle.changed.isEmpty {
        Output.error(
          "warning: \(TerminalText.escaped(file)): \(bundle.changed.map(TerminalText.escaped).joined(separator: ", ")) differ from its manifest (changed since it was made)"
        )
      }
      if !tableGiven, let table = bundle.definedAttributes {
        defined = (defined ?? []).union(table)
        Output.error(
          "with the bundle's demographics table: \(table.sorted().map(TerminalText.escaped).joined(separator: ", "))"
        )
      }
      sources.append(.document(name: file + ":" + DebugBundle.capturePath, bytes: Data(capture)))
    }
    return try HARReader.judge(
      sources: sources, skipUnreadable: skipUnreadable,
      replay: stories ? FieldReplay(definedAttributes: defined) : nil,
      definedAttributes: defined, demographicsSet: demographicsSet)
  }
}
