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
import Synchronization
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

  @OptionGroup(title: "The app it accepts") var app: AppCredentials

  @OptionGroup var appConfig: AppConfigFile

  @OptionGroup var receiver: ReceiverArguments

  @OptionGroup(title: "The tenant's demographics") var tenant: TenantOption

  @OptionGroup(title: "The tenant's demographics") var readBack: ReadBackOption

  @Option(
    help:
      "Keep the server's data in this SQLite file (default: a temporary one, gone when the server stops)."
  )
  var db: String?

  @Flag(help: "Print nothing but the address.")
  var quiet = false

  func validate() throws {
    _ = try receiverApp()
    try tenant.checkAlone(typedTable: app.definedAttributes != nil)
    try receiver.checkDistinctFiles([("--db", db)])
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  func receiverApp() throws -> ReceiverApp {
    try app.receiverApp(config: appConfig.chosen, receiver: receiver)
  }

  func run() async throws {
    var app = try receiverApp()
    let quiet = self.quiet
    let table: TenantTable?
    do {
      table = try await tenant.start(readBackAfter: readBack.readBackAfter) {
        if !quiet || $0.hasPrefix("warning:") { Output.line($0) }
      }
    } catch {
      // A tenant that cannot be read is no wrong option: exit 2, as qa and regscope do.
      Output.error("regctl serve: \(error)")
      throw ExitCode(2)
    }
    table?.apply(to: &app.settings)
    let settings = app.settings
    let captureFailed = Mutex(false)
    // Under a fleet, at most `LiveLineBudget.linesPerSecond` event lines a second.
    let lines = LiveEventLines(
      budget: LiveLineBudget(zone: .system), now: { SystemClock().now() },
      format: { LiveLine.event($0, json: false, in: .system) })
    let session: ReceiverSession
    do {
      let opened = try await SessionFactory(network: HTTPNetwork()).open(
        .receiver(
          ReceiverSetup(
            settings: settings, store: try db.map { try ServerStore.open(at: $0) },
            options: captureOptions(quiet: quiet) { problem in
              captureFailed.withLock { $0 = true }
              Output.error("regctl serve: \(problem)")
            },
            tenant: table?.hookup(relayed: receiver.upstream != nil) { outcome in
              if !quiet || outcome.failure != nil { Output.line(outcome.described) }
            })),
        log: RunLog(limit: RunLog.liveLimit) { event in
          if !quiet { lines.append(event) }
        })
      guard let receiver = opened.receiver else { throw SessionError.noDevice("serve") }
      session = receiver
    } catch {
      throw ValidationError("\(error)")
    }
    Output.line("listening on \(session.url)")
    if !quiet {
      Output.line(
        app.described + ", " + app.processing + ", data \(session.server.storeLocation)")
      if let upstream = receiver.upstream {
        Output.line(
          "relaying device requests to \(HTTPNetwork.relayShown(upstream)) as they came (the app's token is the tenant's to check, not this receiver's); faults injected here answer first"
        )
        if let table { Output.line(table.readBackDescribed) }
      }
      if let warning = receiver.exposureWarning { Output.line("warning: \(warning)") }
      for warning in app.warnings { Output.line("warning: \(warning)") }
    }
    if let har = receiver.har {
      Output.line("writing every device request and answer to \(TerminalText.escaped(har))")
    }
    _ = await TerminationSignal.wait()
    await session.stop()
    lines.finish()
    if let written = session.front.written { Output.line(written) }
    if !quiet { Output.line("stopped") }
    // A capture that could not be kept is a failed run, whatever else went well.
    if captureFailed.withLock({ $0 }) { throw ExitCode(1) }
  }

  /// The receiver's options; with --har, each write of the capture is said (at most once a
  /// second), so a user sees it is being kept.
  func captureOptions(quiet: Bool, failed: @escaping @Sendable (String) -> Void)
    -> ReceiverOptions
  {
    var options = receiver.options
    options.harFailed = failed
    if let har = receiver.har, !quiet {
      let shown = TerminalText.escaped(har)
      options.harWritten = { count in
        Output.line("capture: \(count) exchange\(count == 1 ? "" : "s") written to \(shown)")
      }
    }
    return options
  }
}
