import ArgumentParser
import Clocks
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the local Engagement server (SPEC S1-S7) on loopback.",
    discussion: """
      Answers POST /device/v1/registration with 201 and processes registrations after the
      processing delay. Inspect it with GET /api/contacts, /api/devices, /api/registrations,
      /api/stats; define attributes with PUT /api/demographics; inject faults with
      POST /api/faults and recover with DELETE /api/faults. GET /openapi.json describes it all.
      """)

  @Option(name: .customLong("app-id"), help: "The app id (etAppId) registrations must carry.")
  var appID: String

  @Option(help: "The access token clients must send as a bearer token.")
  var accessToken: String

  @Option(help: "Port to listen on; 0 picks a free one.")
  var port: Int = 8080

  @Option(help: "Address to bind. Anything but loopback exposes the server to the network.")
  var host: String = "127.0.0.1"

  @Option(help: "Keep the server's data in this SQLite file (default: in memory).")
  var db: String?

  @Option(help: "How long processing takes after the 201 (S2): 90s, 5m, 2h.")
  var processingDelay: String = "5m"

  @Option(help: "Comma-separated attribute names the demographics table defines (S5).")
  var definedAttributes: String?

  @Flag(help: "Print nothing but the address.")
  var quiet = false

  func validate() throws {
    guard !InputRules.trimmed(appID).isEmpty else {
      throw ValidationError("--app-id may not be empty")
    }
    guard !InputRules.trimmed(accessToken).isEmpty else {
      throw ValidationError("--access-token may not be empty")
    }
    guard DurationText.seconds(processingDelay) != nil else {
      throw ValidationError(
        "--processing-delay \"\(processingDelay)\" is not a duration; use 90s, 5m, 2h or seconds")
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
  }

  func run() async throws {
    let defined = definedAttributes.map {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    }
    let settings = ServerSettings(
      appID: InputRules.trimmed(appID), accessToken: accessToken,
      processingDelay: DurationText.seconds(processingDelay) ?? 300, definedAttributes: defined)
    let store: ServerStore
    do {
      store = try db.map { try ServerStore.open(at: $0) } ?? ServerStore.inMemory()
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
      })
    var options = EngagementHTTPServer.Options()
    options.host = host
    options.port = port
    let front = EngagementHTTPServer(server: server, options: options)
    let boundPort: Int
    do {
      boundPort = try await front.start()
    } catch {
      throw ValidationError("\(error)")
    }
    Output.line("listening on http://\(host):\(boundPort)")
    if !quiet {
      Output.line(
        "app \(settings.appID), token \(AccessToken(accessToken).masked), processing delay \(DurationText.describe(settings.processingDelay)), "
          + "demographics \(defined.map { $0.sorted().joined(separator: ",") } ?? "(none: every attribute accepted)"), "
          + "data \(store.location)")
      if host != "127.0.0.1" && host != "localhost" && host != "::1" {
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
