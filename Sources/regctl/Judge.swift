import ArgumentParser
import EngagementCore
import Foundation
import HAR
import RegistrationCore
import ToolSupport

struct Judge: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Judge the SDK registrations in captured traffic (HAR 1.2 files).",
    discussion: """
      Reads what mitmproxy (--set hardump=FILE), Charles, Proxyman, a browser's developer \
      tools or RegScope itself (--har, GET /api/devices/ID/har) wrote, takes every request \
      whose path ends in /device/v1/registration, orders them by start time, and judges each \
      device with the live watch's judge, for the SDK its User-Agent names. The SDK's other \
      routes are counted per device; every other entry is ignored. Tokens never print.

      Exit status: 0 when no finding reaches --fail-on (codes given to --allow never do), \
      1 when one does, 2 when a file cannot be read or an option is wrong.
      """)

  @Argument(help: "HAR files (one session may span several).")
  var files: [String]

  @Flag(help: "One JSON object per device, shaped as GET /api/devices/{id}/registrations.")
  var json = false

  @OptionGroup var gateOptions: FindingGateOptions

  @Flag(
    help:
      "Judge the rest when an entry cannot be read as JSON (it is counted and named); without it, such an entry exits 2."
  )
  var skipUnreadable = false

  func run() throws {
    let gate = try gateOptions.gate(tool: "regctl judge")
    let judge: CaptureJudge
    do {
      judge = try HARReader.judge(files, skipUnreadable: skipUnreadable)
    } catch {
      Output.error("regctl judge: \(error)")
      throw ExitCode(2)
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      for device in judge.devices {
        let timeline = WatchViews.timeline(device, maskToken: CaptureJudge.shownToken)
        let data = (try? encoder.encode(timeline)) ?? Data("{}".utf8)
        Output.line(String(decoding: data, as: UTF8.self))
      }
      Output.error(CaptureText.summary(judge, sources: files))
    } else {
      Output.line(CaptureText.report(judge, sources: files))
    }
    if judge.devices.contains(where: gate.fails) {
      throw ExitCode(1)
    }
  }
}
