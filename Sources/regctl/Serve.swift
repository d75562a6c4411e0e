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

  @Option(name: .customLong("app-id"), help: "The app id (etAppId) registrations must carry.")
  var appID: String?

  @Option(
    help: ArgumentHelp(
      "The access token clients must send as a bearer token.",
      discussion:
        "Visible to anyone who can list processes; prefer --access-token-file or REGSCOPE_ACCESS_TOKEN."
    ))
  var accessToken: String?

  @Option(help: "Read the access token from this file (its first line).")
  var accessTokenFile: String?

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
    if receiver.anyApp {
      if appID != nil || accessToken != nil || accessTokenFile != nil {
        throw ValidationError("give --app-id and a token, or --any-app, not both")
      }
    } else {
      guard let appID else {
        throw ValidationError(
          "the server needs the app's id: --app-id ID (or --any-app to adopt the first registration's)"
        )
      }
      guard !InputRules.trimmed(appID).isEmpty else {
        throw ValidationError("--app-id may not be empty")
      }
      _ = try resolvedAccessToken()
    }
    if case .failure(let problem) = DurationText.parse(processingDelay) {
      throw ValidationError("--processing-delay: \(problem)")
    }
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  /// `--access-token`, else `--access-token-file`, else `REGSCOPE_ACCESS_TOKEN`.
  func resolvedAccessToken() throws -> String {
    if accessToken != nil && accessTokenFile != nil {
      throw ValidationError("give --access-token or --access-token-file, not both")
    }
    let token: String
    let source: String
    if let accessToken {
      (token, source) = (accessToken, "--access-token")
    } else if let path = accessTokenFile {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw ValidationError("--access-token-file \(path) cannot be read as UTF-8 text")
      }
      (token, source) = (
        String(text.split(separator: "\n").first ?? ""), "--access-token-file \(path)"
      )
    } else if let value = ProcessInfo.processInfo.environment["REGSCOPE_ACCESS_TOKEN"] {
      (token, source) = (value, "REGSCOPE_ACCESS_TOKEN")
    } else {
      throw ValidationError(
        "the server needs the app's access token: --access-token-file FILE, REGSCOPE_ACCESS_TOKEN, or --access-token"
      )
    }
    let trimmed = InputRules.trimmed(token)
    guard !trimmed.isEmpty else { throw ValidationError("\(source) gives an empty access token") }
    guard trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw ValidationError(
        "\(source): an access token is printable ASCII with no spaces (a bearer token, RFC 6750)")
    }
    return trimmed
  }

  func run() async throws {
    let anyApp = receiver.anyApp
    // --any-app: nothing is accepted until the first registration names the app; the
    // placeholder token is random, so nobody can guess it meanwhile.
    let accessToken =
      anyApp
      ? (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }.joined()
      : try resolvedAccessToken()
    let defined = definedAttributes.map {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    }
    let settings = ServerSettings(
      appID: InputRules.trimmed(appID ?? "(any)"), accessToken: accessToken,
      processingDelay: DurationText.seconds(processingDelay) ?? 300, definedAttributes: defined)
    let quiet = self.quiet
    let session: ReceiverSession
    do {
      let store = try db.map { try ServerStore.open(at: $0) } ?? ServerStore.temporary()
      session = try await SessionFactory(network: HTTPNetwork()).receiver(
        ReceiverSetup(settings: settings, store: store, options: receiver.options),
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
}
