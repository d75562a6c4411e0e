import ArgumentParser
import CNcursesw
import Clocks
import EngagementCore
import EngagementServer
import Fleet
import Foundation
import InspectorUI
import QA
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionHTTP
import SessionValues
import StateDumps
import Synchronization
import SystemCalls
import ToolSupport

@main
struct RegScope: AsyncParsableCommand {
  static func main() async {
    // A crash must never leave a user's terminal in the runtime's interactive backtrace
    // prompt (it waits 30 s for a key): the runtime reads this once, at start.
    SystemCalls.restartWith(environment: "SWIFT_BACKTRACE", value: "interactive=no")
    await mainEscapingMessages()
  }

  static let configuration = CommandConfiguration(
    commandName: "regscope",
    abstract: "Watch and drive mobile-push device registration in your terminal.",
    usage: RegScopeHelp.usage,
    discussion: RegScopeHelp.discussion,
    version: RegScopeVersion.described)

  @OptionGroup var options: SessionOptions

  @Option(help: "Theme: default, light, high-contrast, monochrome, or a YAML file.")
  var theme: String = "default"

  @Option(
    help: "Play a built-in scenario live (demo mode, 60x unless --speed), on fresh in-memory state."
  )
  var scenario: String?

  @Flag(
    name: .customLong("step"),
    help: "With --scenario: hold each caption until Space, instead of about 3 seconds.")
  var stepByStep = false

  @Option(
    name: .customLong("caption-seconds"),
    help: "With --scenario: how long each caption stays before the demo goes on (0-60).")
  var captionSeconds: Double = DemoPace.defaultCaptionHold

  @Option(
    name: .customLong("import-state"),
    help: "Open on a shipped SDK's state dump (Android, unified or iOS), read-only.")
  var importState: String?

  @Option(
    name: .customLong("judge"),
    help: ArgumentHelp(
      "Open a capture (HAR 1.2) in the receiver's layout, judged, read-only.",
      valueName: "file"))
  var capture: String?

  @Option(
    name: .customLong("open"),
    help: ArgumentHelp(
      "Open a debug bundle (regctl bundle's zip) in the receiver's layout, read-only and offline.",
      valueName: "file"))
  var openBundle: String?

  @Flag(
    help: ArgumentHelp(
      "Receive real apps' registrations and judge them, instead of simulating a device.",
      discussion:
        "Point the app's server URL at http://127.0.0.1:PORT (iOS simulator), http://10.0.2.2:PORT (Android emulator)."
    ))
  var receive = false

  @OptionGroup(title: "With --receive") var receiver: ReceiverArguments

  @OptionGroup(title: "With --receive: the app it accepts (or --config)")
  var app: AppCredentials

  @OptionGroup(title: "With --receive: the tenant's demographics (D reads them again)")
  var tenant: TenantOption

  @OptionGroup(title: "With --receive: the tenant's demographics (D reads them again)")
  var readBack: ReadBackOption

  @Option(
    help: ArgumentHelp(
      "With --receive: run a QA plan (a file, or a built-in: regctl qa --list) beside the timeline.",
      valueName: "plan"))
  var qa: String?

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

  func validate() throws {
    guard (1...1_000_000).contains(fleetDevices) else {
      throw ValidationError("--fleet-devices must be 1 to 1,000,000")
    }
    if let fleetOutage, case .failure(let problem) = FleetText.outage(fleetOutage) {
      throw ValidationError("--fleet-outage: \(problem)")
    }
    try validateJob()
  }

  func run() async throws {
    let started = ContinuousClock.now
    if let measure {
      try await Measure.run(measure)
      return
    }
    let wakes: WakeQueue
    do {
      wakes = try WakeQueue()
    } catch {
      Output.error("regscope: \(error)")
      throw ExitCode(2)
    }
    let wake: @Sendable (Wake) -> Void = { wakes.post($0) }
    let onEvent: @Sendable (RunEvent) -> Void = { wake(.message(.events([$0]))) }
    let folder = StateDirectory.resolve(options.state)
    let opened: OpenedJob
    do {
      opened = try await openJob(
        folder: folder, log: RunLog(limit: RunLog.liveLimit, listener: onEvent))
    } catch {
      Output.error("regscope: \(error)")
      throw ExitCode(2)
    }
    let session = opened.session
    let look = appLook(warnings: opened.warnings)
    // Nothing written to stderr may land on the screen: it goes to a log file instead.
    let log = try? LogFile.redirectStandardError(to: folder + "/regscope.log")
    for problem in look.themeProblems { Output.error(problem) }
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
    let work = SessionWork(session: session, receiver: opened.receiver, in: folder, report: wake)
    let player = await start(opened, wake: wake)
    let qaRun = try startQA(on: opened.receiver, reportFolder: folder, wake: wake)
    let first = await session.snapshot()
    let lost = Mutex<String?>(nil)
    await UIThread.run {
      guard let terminal = handoff.withLock({ $0.take() }) else { return }
      let app = App(
        session: session, terminal: terminal, title: TerminalText.escaped(opened.title),
        hasLocalServer: opened.hasLocalServer, receivingAt: opened.receivingAt,
        theme: look.theme, monochrome: look.monochrome, wakes: wakes, work: work)
      look.apply(to: app)
      app.showReceivingApp(opened.receivingApp)
      app.qa = qaRun
      if let demo = opened.demo { app.showDemo(demo.scenario, pace: demo.session.pace) }
      let why = app.run(first: first, started: started)
      terminal.stop()
      lost.withLock { $0 = why }
    }
    player?.cancel()
    // A QA run still going is stopped, and its report written, before the receiver goes.
    let qaStopped = await qaRun?.finish() ?? false
    for source in signals { source.cancel() }
    log?.restore()
    await work.finish()
    await session.stop()
    if let written = opened.receiver?.front.written { Output.error(written) }
    if let report = qaRun?.written.withLock({ $0 }) { Output.error("QA report: \(report)") }
    if let why = lost.withLock({ $0 }) {
      Output.error("regscope: \(why); the screen is restored and nothing was lost")
      throw ExitCode(1)
    }
    if qaStopped {
      // As regctl qa: a QA run stopped before its end (Ctrl-C) is exit 130.
      Output.error("regscope: the QA run was stopped before its end")
      throw ExitCode(130)
    }
  }
}

/// How the inspector looks as it opens: its theme, the Fleet view's plans, the notices it
/// flashes first.
struct AppLook {
  var theme: Theme
  var themeProblems: [String]
  var monochrome: Bool
  var ascii: Bool
  var fleetPlans: [FleetPlan]
  var opensFleet: Bool
  var notices: [String]

  func apply(to app: App) {
    if ascii { app.useASCII() }
    app.fleetPlans = fleetPlans
    for notice in notices { app.flash(notice, isError: true) }
    if opensFleet { app.openFleet() }
  }
}

extension RegScope {
  func appLook(warnings: [String]) -> AppLook {
    let loaded = ThemeLoader.load(theme)
    let outage = fleetOutage.flatMap { try? FleetText.outage($0).get() }
    let fleetPlans = FleetShow.defaultPlans(outage: outage).map {
      var plan = $0
      plan.devices = fleetDevices
      return plan
    }
    return AppLook(
      theme: loaded.theme, themeProblems: loaded.problems,
      monochrome: !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty, ascii: ascii,
      fleetPlans: fleetPlans, opensFleet: fleet,
      notices: (warnings.isEmpty ? [] : ["warning: " + warnings.joined(separator: "; ")])
        + (loaded.problems.isEmpty ? [] : [loaded.problems.joined(separator: "; ")]))
  }
}

extension RegScope {
  /// Launches the app, or, in a demo, plays the scenario, which launches it when it says
  /// (after `server down`, say). A receiver's task keeps the tenant's demographics fresh.
  func start(_ opened: OpenedJob, wake: @escaping @Sendable (Wake) -> Void) async -> Task<
    Void, Never
  >? {
    guard let demo = opened.demo else {
      _ = try? await opened.session.execute(.launch)
      // A receiver with --tenant: the session keeps its demographics current; each refresh
      // is said.
      if let notice = opened.readBackNotice { wake(.message(.notice(notice, isError: false))) }
      guard let outcomes = opened.tenantOutcomes else { return nil }
      return Task {
        for await outcome in outcomes {
          wake(.message(.notice(outcome.said, isError: outcome.failed)))
        }
      }
    }
    demo.session.pace?.whenFastForwarding { wake(.message(.demo(.fastForward(seconds: $0)))) }
    return Task { await ScenarioPlayer.play(demo.scenario, on: demo.session, report: wake) }
  }

  /// `--qa PLAN`: the plan runs beside the receiver, its checklist posted to the UI.
  func startQA(
    on receiver: ReceiverSession?, reportFolder: String,
    wake: @escaping @Sendable (Wake) -> Void
  ) throws -> QAInInspector? {
    guard let plan = try qaPlan(), let receiver else { return nil }
    let run = QAInInspector(plan: plan)
    run.start(
      on: receiver.server, reportFolder: reportFolder,
      context: QARunContext(
        receiver: receiver.url, app: try? receiverApp().brief,
        har: self.receiver.har.map(TerminalText.escaped)), post: { wake(.message(.qa($0))) },
      say: { wake(.message(.notice($0, isError: false))) })
    return run
  }
}

enum RegScopeExit {
  /// For atexit: if the process ends with curses still active, give the terminal back.
  static func restoreTerminal() -> Int32 { isendwin() ? 0 : endwin() }
}
