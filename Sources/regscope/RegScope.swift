import ArgumentParser
import CNcursesw
import Clocks
import EngagementServer
import Fleet
import Foundation
import InspectorUI
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionHTTP
import Synchronization
import ToolSupport

#if canImport(Glibc)
  import Glibc
#endif

@main
struct RegScope: AsyncParsableCommand {
  static func main() async { await mainEscapingMessages() }

  static let configuration = CommandConfiguration(
    commandName: "regscope",
    abstract: "Watch and drive mobile-push device registration in your terminal.",
    discussion: """
      With no options it opens on its embedded default: the local Engagement server in \
      process, a demo app configuration, state under $XDG_STATE_HOME/regscope. Press ? for keys.
      """)

  @OptionGroup var options: SessionOptions

  @Option(help: "Theme: default, light, high-contrast, monochrome, or a YAML file.")
  var theme: String = "default"

  @Option(
    help: "Play a built-in scenario live (demo mode, 60x unless --speed), on fresh in-memory state."
  )
  var scenario: String?

  @Option(
    name: .customLong("import-state"),
    help: "Open on a shipped SDK's state dump (Android, unified or iOS), read-only.")
  var importState: String?

  @Flag(
    help: ArgumentHelp(
      "Receive real apps' registrations and judge them, instead of simulating a device.",
      discussion:
        "Point the app's server URL at http://127.0.0.1:PORT (iOS simulator), http://10.0.2.2:PORT (Android emulator)."
    ))
  var receive = false

  @Option(help: "With --receive: the port to listen on (0 picks a free one).")
  var port: Int = 8080

  @Option(help: "With --receive: relay every device request to this tenant and its answers back.")
  var upstream: String?

  @Option(
    help: ArgumentHelp(
      "With --receive: the address to bind (default 127.0.0.1).",
      discussion:
        "A LAN address lets a phone on the network in; it needs your app's own token (--config), never the demo's.",
      valueName: "address"))
  var listen: String = "127.0.0.1"

  @Option(help: "With --receive: serve https with this certificate (PEM); needs --tls-key.")
  var tlsCert: String?

  @Option(help: "With --receive: the certificate's private key (PEM).")
  var tlsKey: String?

  @Flag(
    help: ArgumentHelp(
      "With --receive: adopt the app id and token of the first registration (loopback only).",
      discussion:
        "For a first try with an app whose configuration file is not at hand; the receiver says which app it adopted."
    ))
  var anyApp = false

  @Flag(help: "Open on the Fleet view: many devices through the three strategies (F toggles it).")
  var fleet = false

  @Option(help: "With --fleet: how many devices.")
  var fleetDevices: Int = FleetShow.defaultDevices

  @Option(help: "With --fleet: an outage, START+DURATION[:STATUS] (as regctl fleet --outage).")
  var fleetOutage: String?

  @Flag(help: "Draw with ASCII only.")
  var ascii = false

  @Option(help: .hidden)
  var measure: String?

  /// "app ID ← real apps, receiving on URL, relayed to TENANT" (credentials never shown).
  func receiverTitle(appID: String, destination: String) -> String {
    let app = anyApp ? "any app" : "app \(appID)"
    let relay = upstream.map { ", relayed to " + HTTPNetwork.relayShown($0) } ?? ""
    return "\(app) ← real apps, \(destination)\(relay)"
  }

  func validate() throws {
    guard (1...1_000_000).contains(fleetDevices) else {
      throw ValidationError("--fleet-devices must be 1 to 1,000,000")
    }
    if let fleetOutage, case .failure(let problem) = FleetText.outage(fleetOutage) {
      throw ValidationError("--fleet-outage: \(problem)")
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    let receiving = [upstream, tlsCert, tlsKey].contains { $0 != nil } || listen != "127.0.0.1"
    if receiving && !receive {
      throw ValidationError("--upstream, --listen, --tls-cert and --tls-key go with --receive")
    }
    if (tlsCert == nil) != (tlsKey == nil) {
      throw ValidationError("give --tls-cert and --tls-key together")
    }
    if anyApp {
      guard receive else { throw ValidationError("--any-app goes with --receive") }
      if let problem = Loopback.anyAppProblem(host: listen) { throw ValidationError(problem) }
      if options.config != nil {
        throw ValidationError(
          "give --config (the app's own id and token) or --any-app (adopt the first), not both")
      }
    }
    if !Loopback.contains(listen) && options.config == nil {
      throw ValidationError(
        "--listen \(TerminalText.escaped(listen)) lets the network in: give your app's own token with --config and --config-name (the demo token is public)"
      )
    }
    if let scenario, BuiltInScenarios.named(scenario) == nil,
      !FileManager.default.fileExists(atPath: scenario)
    {
      let nearest = Suggestion.nearest(to: scenario, in: BuiltInScenarios.all.map(\.name))
      throw ValidationError(
        "no built-in scenario \"\(scenario)\"\(nearest.map { "; did you mean \"\($0)\"?" } ?? "") (regctl scenarios lists them)"
      )
    }
  }

  func run() async throws {
    let started = ContinuousClock.now
    if let measure {
      try await Measure.run(measure)
      return
    }
    let inbox = EventInbox()
    let wakes: WakeQueue
    do {
      wakes = try WakeQueue()
    } catch {
      Output.error("regscope: \(error)")
      throw ExitCode(2)
    }
    let wake: @Sendable (Wake) -> Void = { wakes.post($0) }
    let onEvent: @Sendable (RunEvent) -> Void = { event in
      inbox.append(event)
      wake(.state)
    }
    let folder = StateDirectory.resolve(options.state)
    let session: Session
    var playing: Scenario?
    var imported: ImportedDevice?
    do {
      if let importState {
        let data = try StateDumpImport.load(path: importState)
        let device = ImportedDevice(
          try StateDumpImport.read(data, source: importState), source: importState)
        imported = device
        var setup = SessionSetup()
        setup.imported = device
        setup.platform = device.state.record.device.platform
        let place = SessionPlace(
          clock: ScaledClock(rate: 1), deviceStore: try RegistrationStore.inMemory(),
          serverStore: try ServerStore.inMemory(), live: true)
        session = try await Session.start(
          setup, place: place, log: RunLog(limit: RunLog.liveLimit, listener: onEvent))
      } else if receive {
        let place = SessionPlace(
          clock: ScaledClock(rate: 1), deviceStore: try RegistrationStore.inMemory(),
          // A receiving session starts afresh: what it judges lives as long as it runs.
          serverStore: try ServerStore.inMemory(), live: true, network: HTTPNetwork(),
          receiver: ReceiverOptions(
            port: port, upstream: upstream, host: listen,
            tls: tlsCert.flatMap { cert in tlsKey.map { (cert, $0) } }, anyApp: anyApp))
        // The app's own id and token (from its configuration file) are what its requests carry.
        var setup = SessionSetup()
        if let config = options.config, let name = options.configName {
          let app = try ConfigurationFile.load(path: config, name: name, sdk: options.sdk.profile)
          setup.appID = app.appID
          setup.accessToken = app.accessToken.revealed
        }
        session = try await Session.start(
          setup, place: place, log: RunLog(limit: RunLog.liveLimit, listener: onEvent))
      } else if let scenario {
        guard let loaded = try BuiltInScenarios.load(scenario) else {
          throw ValidationError("no built-in scenario or file \"\(scenario)\"")
        }
        playing = loaded
        let place = SessionPlace(
          clock: ScaledClock(rate: options.speed ?? 60),
          deviceStore: try RegistrationStore.inMemory(),
          serverStore: try ServerStore.inMemory(), live: true, network: HTTPNetwork())
        var setup = loaded.setup
        setup.deviceID = nil
        if let profile = options.sdk.profile { setup.use(profile) }
        session = try await Session.start(
          setup, place: place, log: RunLog(limit: RunLog.liveLimit, listener: onEvent))
      } else {
        session = try await LiveSession.open(
          folder: folder, config: options.config, configName: options.configName,
          server: options.server, speed: options.speed ?? 1, resetState: options.resetState,
          sdk: options.sdk.profile, network: HTTPNetwork(), onEvent: onEvent)
      }
    } catch {
      Output.error("regscope: \(error)")
      throw ExitCode(2)
    }
    let loadedTheme = ThemeLoader.load(theme)
    let environment = ProcessInfo.processInfo.environment
    let monochrome = !(environment["NO_COLOR"] ?? "").isEmpty
    let title =
      imported.map { "imported: \($0.source) (read-only)" }
      ?? playing.map { "demo: \($0.name) → \(session.destination)" }
      ?? (receive
        ? receiverTitle(appID: session.setup.appID, destination: session.destination)
        : "app \(session.engineConfiguration.appID) → \(session.destination)")
    let outage = fleetOutage.flatMap { try? FleetText.outage($0).get() }
    let fleetPlans = FleetShow.defaultPlans(outage: outage).map {
      var plan = $0
      plan.devices = fleetDevices
      return plan
    }
    var startupWarnings = receive ? [] : session.engineConfiguration.startupWarnings
    if receive && !Loopback.contains(listen) {
      startupWarnings.append(
        "listening on \(TerminalText.escaped(listen)): anyone who can reach it can register")
    }
    let notices =
      (startupWarnings.isEmpty ? [] : ["warning: " + startupWarnings.joined(separator: "; ")])
      + (loadedTheme.problems.isEmpty ? [] : [loadedTheme.problems.joined(separator: "; ")])
    let (ascii, fleet) = (self.ascii, self.fleet)

    // Nothing written to stderr may land on the screen: it goes to a log file instead.
    let log = try? LogFile.redirectStandardError(to: folder + "/regscope.log")
    for problem in loadedTheme.problems { Output.error(problem) }
    // The terminal starts before the device launches: a terminal that cannot start (an
    // unknown TERM) sends nothing. The UI thread takes it over; nothing here touches it after.
    let handoff: Mutex<Terminal?>
    do {
      handoff = Mutex(try Terminal())
    } catch {
      log?.restore()
      Output.error("regscope: \(error)")
      await session.stop()
      throw ExitCode(2)
    }
    atexit { _ = RegScopeExit.restoreTerminal() }
    let signals = SignalWatch.start(wake)
    let work = SessionWork(session: session, report: wake)
    _ = try? await session.execute(.launch)
    let player = playing.map { scenario in
      Task { await ScenarioPlayer.play(scenario, on: session, report: wake) }
    }
    let first = await session.snapshot()
    let lost = Mutex<String?>(nil)
    await UIThread.run {
      guard let terminal = handoff.withLock({ $0.take() }) else { return }
      let app = App(
        session: session, terminal: terminal, title: TerminalText.escaped(title),
        theme: loadedTheme.theme, monochrome: monochrome, inbox: inbox, wakes: wakes, work: work)
      if ascii { app.useASCII() }
      app.fleetPlans = fleetPlans
      for notice in notices { app.flash(notice, isError: true) }
      if fleet { app.openFleet() }
      let why = app.run(first: first, started: started)
      terminal.stop()
      lost.withLock { $0 = why }
    }
    player?.cancel()
    for source in signals { source.cancel() }
    log?.restore()
    await work.finish()
    await session.stop()
    if let why = lost.withLock({ $0 }) {
      Output.error("regscope: \(why); the screen is restored and nothing was lost")
      throw ExitCode(1)
    }
  }
}

enum RegScopeExit {
  /// For atexit: if the process ends with curses still active, give the terminal back.
  static func restoreTerminal() -> Int32 { isendwin() ? 0 : endwin() }
}
