import ArgumentParser
import Clocks
import EngagementHTTP
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
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

  @Flag(
    help:
      "Adopt the app id and token of the first registration instead of --app-id and a token (loopback only)."
  )
  var anyApp = false

  @Option(
    help: ArgumentHelp(
      "The access token clients must send as a bearer token.",
      discussion:
        "Visible to anyone who can list processes; prefer --access-token-file or REGSCOPE_ACCESS_TOKEN."
    ))
  var accessToken: String?

  @Option(help: "Read the access token from this file (its first line).")
  var accessTokenFile: String?

  @Option(help: "Port to listen on; 0 picks a free one.")
  var port: Int = 8080

  @Option(
    name: [.customLong("listen"), .customLong("host")],
    help: ArgumentHelp(
      "Address to bind (default 127.0.0.1, which simulators and emulators reach).",
      discussion:
        "A LAN address lets a phone on the network in; anyone who can reach it can register, so the server warns and always needs the app's access token.",
      valueName: "address"))
  var host: String = "127.0.0.1"

  @Option(help: "Serve https with this certificate (PEM); needs --tls-key.")
  var tlsCert: String?

  @Option(help: "The certificate's private key (PEM); needs --tls-cert.")
  var tlsKey: String?

  @Option(
    help:
      "Keep the server's data in this SQLite file (default: a temporary one, gone when the server stops)."
  )
  var db: String?

  @Option(help: "How long processing takes after the 201 (S2): 90s, 5m, 2h.")
  var processingDelay: String = "5m"

  @Option(help: "Comma-separated attribute names the demographics table defines (S5).")
  var definedAttributes: String?

  @Option(
    help: ArgumentHelp(
      "Relay every device request to this tenant (https://...) and its answers back.",
      discussion:
        "Injected faults still answer first. Each registration and the tenant's answer join the device's timeline; a tenant that cannot be reached is a 502 with the reason."
    ))
  var upstream: String?

  @Flag(help: "Print nothing but the address.")
  var quiet = false

  func validate() throws {
    if anyApp {
      if let problem = Loopback.anyAppProblem(host: host) { throw ValidationError(problem) }
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
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    switch (tlsCert, tlsKey) {
    case (nil, nil): break
    case (let cert?, let key?):
      do {
        try ServerTLS(certificatePath: cert, keyPath: key).check()
      } catch {
        throw ValidationError(TerminalText.escaped(error.description))
      }
    default: throw ValidationError("give --tls-cert and --tls-key together")
    }
    if let upstream, let problem = Upstream.problem(with: upstream) {
      throw ValidationError("--upstream \(TerminalText.escaped(upstream)): \(problem)")
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
    let store: ServerStore
    do {
      store = try db.map { try ServerStore.open(at: $0) } ?? ServerStore.temporary()
    } catch {
      throw ValidationError("\(error)")
    }
    let quiet = self.quiet
    let server = try LocalEngagementServer(
      settings: settings, store: store, clock: SystemClock(),
      seed: UInt64.random(in: 1...UInt64.max),
      eventSink: { event, now in
        if !quiet {
          Output.line(LiveLine.event(RunEvent(t: now, body: .server(event)), json: false))
        }
      }, adoptsFirstApp: anyApp)
    var options = EngagementHTTPServer.Options()
    options.host = host
    options.port = port
    options.upstream = upstream.flatMap(Upstream.init)
    if let tlsCert, let tlsKey {
      options.tls = ServerTLS(certificatePath: tlsCert, keyPath: tlsKey)
    }
    let front = EngagementHTTPServer(server: server, options: options)
    let boundPort: Int
    do {
      boundPort = try await front.start()
    } catch {
      throw ValidationError("\(error)")
    }
    Output.line("listening on \(options.tls == nil ? "http" : "https")://\(host):\(boundPort)")
    if !quiet {
      Output.line(
        (anyApp
          ? "app: any (--any-app): the first registration's app id and token are adopted"
          : "app \(settings.appID), token \(AccessToken(accessToken).masked)")
          + ", processing delay \(DurationText.describe(settings.processingDelay)), "
          + "demographics \(defined.map { $0.sorted().joined(separator: ",") } ?? "(none: every attribute accepted)"), "
          + "data \(store.location)")
      if let relay = options.upstream {
        Output.line("relaying device requests to \(relay.base); faults injected here answer first")
      }
      if !Loopback.contains(host) {
        Output.line("warning: bound to \(host), not loopback: anyone who can reach it can register")
      }
    }
    let processing = Task { await server.run() }
    _ = await TerminationSignal.wait()
    processing.cancel()
    await front.stop()
    await server.flush()
    if !quiet { Output.line("stopped") }
  }
}
