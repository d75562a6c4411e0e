import ArgumentParser
import EngagementCore
import Foundation
import HAR
import RegistrationCore
import ToolSupport

struct Judge: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Judge the SDK registrations in captured traffic (HAR 1.2 files).",
    discussion: """
      Reads what mitmproxy (--set hardump=FILE), Charles, Proxyman, a browser's developer \
      tools or RegScope itself (--har, GET /api/devices/ID/har) wrote, takes every request \
      whose path ends in /device/v1/registration, orders them by start time, and judges each \
      device with the live watch's judge, for the SDK its User-Agent names. The SDK's other \
      routes are counted per device; every other entry is ignored. Tokens never print.

      With --json, standard output holds JSON only, a device a line (with --explain, each \
      device's sentences); the summary goes to standard error.

      Exit status: 0 when no finding reaches --fail-on (codes given to --allow never do), \
      1 when one does, 2 when a file cannot be read, 64 when an option is wrong.
      """)

  @Argument(help: "HAR files (one session may span several).")
  var files: [String]

  @Flag(help: "One JSON object per device, shaped as GET /api/devices/{id}/registrations.")
  var json = false

  @OptionGroup var gateOptions: FindingGateOptions

  @Flag(
    help:
      "Each device's field stories (as GET /api/devices/{id}/fields): the registrations the tenant took, replayed through processing."
  )
  var fields = false

  @Flag(
    help:
      "Why each device's fields did or did not arrive, in sentences, each rejection with its fix.")
  var explain = false

  @Option(
    help:
      "The demographics table, comma-separated: attributes it lacks are found (S5), and --fields and --explain replay processing with it (default: every attribute accepted).",
    transform: {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    })
  var definedAttributes: Set<String>?

  @OptionGroup(title: "The tenant's demographics, instead of --defined-attributes")
  var tenant: TenantOption

  @Flag(
    help:
      "Judge the rest when an entry cannot be read as JSON (it is counted and named); without it, such an entry exits 2."
  )
  var skipUnreadable = false

  func validate() throws {
    try tenant.checkAlone(typedTable: definedAttributes != nil)
  }

  func run() async throws {
    let gate = try gateOptions.gate()
    let table: TenantTable?
    do {
      // Said on stderr: stdout is the report, or JSON a device a line.
      table = try await tenant.start { Output.error($0) }
    } catch {
      Output.error("regctl judge: \(error)")
      throw ExitCode(2)
    }
    let defined = table?.names ?? definedAttributes
    let judge: CaptureJudge
    do {
      judge = try JudgeSources.judge(
        files, skipUnreadable: skipUnreadable, stories: fields || explain,
        definedAttributes: defined, demographicsSet: table?.demographics.setName)
    } catch {
      Output.error("regctl judge: \(error)")
      throw ExitCode(2)
    }
    if fields || explain {
      printStories(judge, defined: defined)
    } else if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      for device in judge.devices {
        let timeline = WatchViews.timeline(device)
        let data = (try? encoder.encode(timeline)) ?? Data("{}".utf8)
        Output.jsonLine(String(decoding: data, as: UTF8.self))
      }
      Output.error(CaptureText.summary(judge, sources: files))
    } else {
      Output.line(CaptureText.report(judge, sources: files))
    }
    if judge.devices.contains(where: gate.fails) {
      throw ExitCode(1)
    }
  }

  /// `--fields` (JSON, a device a line) or `--explain` (sentences under each device; with
  /// --json, a device's sentences a line).
  private func printStories(_ judge: CaptureJudge, defined: Set<String>?) {
    var replay = judge.replay ?? FieldReplay(definedAttributes: defined)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for story in replay.stories(judge.watch) {
      if fields {
        Output.jsonLine(
          String(decoding: (try? encoder.encode(story)) ?? Data("{}".utf8), as: UTF8.self))
      } else if json {
        let sentences = FieldExplanation.sentences(story).map(JSONText.quoted)
        Output.jsonLine(
          #"{"deviceID":\#(JSONText.quoted(story.deviceID)),"explain":[\#(sentences.joined(separator: ","))]}"#
        )
      } else {
        Output.line("device \(TerminalText.escaped(story.deviceID))")
        for sentence in FieldExplanation.sentences(story) { Output.line("  " + sentence) }
      }
    }
    Output.error(CaptureText.summary(judge, sources: files))
  }
}
