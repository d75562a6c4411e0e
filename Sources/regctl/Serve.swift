import ArgumentParser
import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionHTTP
import SessionValues
import ToolSupport

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the local Engagement server (SPEC S1-S7) on loopback.",
    discussion: """
      Answers POST /device/v1/registration with 201 and processes registrations after the \
      processing delay. Inspect it with GET /api/contacts, /api/devices, /api/registrations \
      (pages: ?limit=N&before=NEXT) and /api/stats. With the bearer token: define attributes \
      with PUT /api/demographics, inject faults with POST /api/faults, recover with \
      DELETE /api/faults. GET /openapi.json describes it all.

      The token comes from --access-token-file or --access-token (one of them), else from \
      REGSCOPE_ACCESS_TOKEN.
      """)

  @OptionGroup var app: AppCredentials

  @OptionGroup var receiver: ReceiverArguments

  @Option(
    help:
      "Keep the server's data in this SQLite file (default: a temporary one, gone when the server stops)."
  )
  var db: String?

  @Option(help: "How long processing takes after the 201 (S2): 90s, 5m, 2h.")
  var processingDelay: String = "5m"

  @Option(help: "Comma-separated attribute names the demographics table defines (S5).")
  var definedAttributes: String?

  @Flag(help: "Print nothing but the address.")
  var quiet = false

  func validate() throws {
    try app.validate(anyApp: receiver.anyApp)
    if case .failure(let problem) = DurationText.parse(processingDelay) {
      throw ValidationError("--processing-delay: \(problem)")
    }
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  func run() async throws {
    let anyApp = receiver.anyApp
    let accessToken = try app.accessToken(anyApp: anyApp)
    let defined = definedAttributes.map {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    }
    let settings = ServerSettings(
      appID: app.appIDOrAny, accessToken: accessToken,
      processingDelay: DurationText.seconds(processingDelay) ?? 300, definedAttributes: defined)
    let quiet = self.quiet
    let session: ReceiverSession
    do {
      let store = try db.map { try ServerStore.open(at: $0) } ?? ServerStore.temporary()
      session = try await SessionFactory(network: HTTPNetwork()).receiver(
        ReceiverSetup(settings: settings, store: store, options: captureOptions(quiet: quiet)),
        log: RunLog(limit: RunLog.liveLimit) { event in
          if !quiet { Output.line(LiveLine.event(event, json: false)) }
        })
    } catch {
      throw ValidationError("\(error)")
    }
    Output.line("listening on \(session.url)")
    if !quiet {
      Output.line(
        (anyApp
          ? "app: any (--any-app): the first registration's app id and token are adopted"
          : "app \(settings.appID), token \(AccessToken(accessToken).masked)")
          + ", processing delay \(DurationText.describe(settings.processingDelay)), "
          + "demographics \(defined.map { $0.sorted().joined(separator: ",") } ?? "(none: every attribute accepted)"), "
          + "data \(session.server.storeLocation)")
      if let upstream = receiver.upstream {
        Output.line(
          "relaying device requests to \(HTTPNetwork.relayShown(upstream)); faults injected here answer first"
        )
      }
      if let warning = receiver.exposureWarning { Output.line("warning: \(warning)") }
    }
    if let har = receiver.har {
      Output.line("writing every device request and answer to \(TerminalText.escaped(har))")
    }
    _ = await TerminationSignal.wait()
    await session.stop()
    if let written = session.front.written { Output.line(written) }
    if !quiet { Output.line("stopped") }
  }

  /// The receiver's options; with --har, each write of the capture is said (at most once a
  /// second), so a user sees it is being kept.
  func captureOptions(quiet: Bool) -> ReceiverOptions {
    var options = receiver.options
    if let har = receiver.har, !quiet {
      let shown = TerminalText.escaped(har)
      options.harWritten = { count in
        Output.line("capture: \(count) exchange\(count == 1 ? "" : "s") written to \(shown)")
      }
    }
    return options
  }
}
