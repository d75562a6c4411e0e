import ArgumentParser
import EngagementCore
import EngagementServer
import Foundation
import QA
import RegistrationCore
import Session
import SessionHTTP
import SessionValues
import Synchronization
import ToolSupport

struct QA: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "qa",
    abstract: "Run a QA plan on a real app through the receiver, and write its report.",
    discussion: """
      Starts the receiver (or the relay, with --upstream) as regctl serve does, then takes the \
      plan's steps in order: it prints each ask: and waits for Enter (--yes goes straight on), \
      injects each fault:, and judges each expect: on the device's registrations until it \
      passes, fails or times out. The report is Markdown (stdout, or --report FILE), JUnit XML \
      (--junit FILE) or JSON (--json).

      Ctrl-C (or SIGTERM) stops the run: the report so far is written, the step running \
      marked interrupted with what it had seen, the steps not reached not run.

      Exit status: 0 when every step passed, 1 when one failed or timed out, 2 when the plan \
      cannot be read, 64 when an option is wrong, 130 when stopped. With --json, standard \
      output holds JSON only (the report, or with --list a plan a line) and the run's progress \
      goes to standard error.
      """)

  @Argument(help: "A plan file (YAML), or a built-in plan's name.")
  var plan: String?

  @Flag(help: "List the built-in plans.")
  var list = false

  @Option(help: "Print a built-in plan's YAML, to copy and edit.")
  var print: String?

  @Flag(help: "Do not wait for Enter after each ask: (a plan run by a script).")
  var yes = false

  @Option(help: "Write the Markdown report to this file.")
  var report: String?

  @Option(help: "Write a JUnit XML report to this file, for CI.")
  var junit: String?

  @Flag(
    help:
      "Print the report as JSON instead of Markdown (a line; the progress on standard error).")
  var json = false

  @OptionGroup(title: "What fails a no-violation step") var gateOptions: FindingGateOptions

  @OptionGroup(title: "The app it accepts") var app: AppCredentials

  @OptionGroup var appConfig: AppConfigFile

  @OptionGroup var receiver: ReceiverArguments

  @OptionGroup(title: "The tenant's demographics") var tenant: TenantOption

  @OptionGroup(title: "A debug bundle of the run") var bundleOption: QABundleOption

  @OptionGroup(title: "The tenant's demographics") var readBack: ReadBackOption

  func validate() throws {
    if let print, BuiltInPlans.yaml.first(where: { $0.name == print }) == nil {
      throw ValidationError(
        "--print: no built-in plan \"\(TerminalText.escaped(print))\" (--list lists them)")
    }
    if list || print != nil { return }
    guard plan != nil else { throw ValidationError("give a plan: a file, or a name from --list") }
    _ = try receiverApp()
    try tenant.checkAlone(typedTable: app.definedAttributes != nil)
    try receiver.checkDistinctFiles([("--report", report), ("--junit", junit)])
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  func run() async throws {
    if list || print != nil { return printPlans() }
    // With --json, standard output is the report's alone: every other line goes to stderr.
    let json = self.json
    let say: @Sendable (String) -> Void = { json ? Output.error($0) : Output.line($0) }
    let loaded = try loadPlan()
    let readBackAfter =
      tenant.tenant != nil && receiver.upstream != nil ? readBack.readBackAfter : nil
    if let problem = loaded.readBackProblem(readBackAfter: readBackAfter) {
      Output.error("regctl qa: \(problem)")
      throw ExitCode(2)
    }
    let gate = try gateOptions.gate()
    var app = try receiverApp()
    let table: TenantTable?
    do {
      table = try await tenant.start(readBackAfter: readBack.readBackAfter) { say($0) }
    } catch {
      Output.error("regctl qa: \(error)")
      throw ExitCode(2)
    }
    table?.apply(to: &app.settings)
    let session = try await openReceiver(
      app, tenant: table?.hookup(relayed: receiver.upstream != nil) { say($0.described) })
    if let table, receiver.upstream != nil { say(table.readBackDescribed) }
    say("regctl qa: \(loaded.name), \(loaded.steps.count) steps; point the app at \(session.url)")
    say(app.described)
    for warning in app.warnings { say("warning: \(warning)") }
    let yes = self.yes
    // One reader of standard input for the whole run: each ask takes the next line.
    let input = yes ? AsyncStream { $0.finish() } : StandardInput.lines()
    var runner = QARunner(
      server: session.server,
      ask: { _, _ in await Self.awaitEnter(yes: yes, input: input, say: say) },
      progress: QAProgressLine(total: loaded.steps.count, say: say).show, gate: gate)
    runner.assumeAsked = yes
    let feed = Task { await QARegistrationFeed.follow(session.server, say: say) }
    let (finished, signal) = await Self.runUntilSignal(runner, loaded)
    feed.cancel()
    var result = finished
    result.context = QARunContext(
      receiver: session.url, app: app.brief, har: receiver.har.map(TerminalText.escaped))
    await session.stop()
    // After the stop: the front has recorded every exchange it answered.
    let bundled = await bundleOption.write(session: session, report: result, say: say)
    if let written = session.front.written { say(written) }
    try writeReports(result)
    if !bundled && signal == nil { throw ExitCode(1) }
    if signal != nil {
      let files = [report, junit].compactMap { $0 }.map(TerminalText.escaped)
      let written =
        files.isEmpty
        ? "the report so far is above"
        : "the report so far is in \(files.joined(separator: " and "))"
      let running = result.results.first { $0.verdict == .interrupted }
      Output.error(
        "regctl qa: stopped; \(written), "
          + (running.map { "step \($0.step.number) interrupted, " } ?? "")
          + "the steps not reached marked not run")
      throw ExitCode(130)
    }
    if !result.passed { throw ExitCode(1) }
  }

  /// Runs the plan until it ends or SIGINT/SIGTERM stops it; stopped, the report holds what
  /// was decided, the rest marked not run.
  static func runUntilSignal(_ runner: QARunner, _ plan: QAPlan) async -> (QAReport, Int32?) {
    let caught = Mutex<Int32?>(nil)
    // Taken over before the run starts: a Ctrl-C at its first step still writes the report.
    let (signals, sources) = TerminationSignal.watch()
    let run = Task { await runner.run(plan) }
    let watcher = Task {
      // Cancelled once the run ended by itself: the loop ends with no signal.
      for await number in signals {
        caught.withLock { $0 = number }
        run.cancel()
        return
      }
    }
    let report = await run.value
    watcher.cancel()
    for source in sources { source.cancel() }
    return (report, caught.withLock { $0 })
  }

  /// A file that exists first, then a built-in name.
  func loadPlan() throws -> QAPlan {
    let name = plan ?? ""
    do {
      if FileManager.default.fileExists(atPath: name) { return try QAPlanParser.parse(file: name) }
      if let builtIn = BuiltInPlans.plan(name) { return builtIn }
      Output.error(
        "regctl qa: no plan file or built-in plan \"\(TerminalText.escaped(name))\" (--list lists the built-ins)"
      )
    } catch {
      Output.error("regctl qa: \(error)")
    }
    throw ExitCode(2)
  }

  func receiverApp() throws -> ReceiverApp {
    try app.receiverApp(config: appConfig.chosen, receiver: receiver)
  }

  func openReceiver(_ app: ReceiverApp, tenant: TenantHookup?) async throws -> ReceiverSession {
    let settings = app.settings
    do {
      let opened = try await SessionFactory(network: HTTPNetwork()).open(
        .receiver(ReceiverSetup(settings: settings, options: receiver.options, tenant: tenant)),
        log: RunLog(limit: RunLog.liveLimit))
      guard let session = opened.receiver else { throw SessionError.noDevice("qa") }
      return session
    } catch {
      // As serve says it: a receiver that cannot start on these options is a wrong option.
      throw ValidationError("\(error)")
    }
  }

  /// `--list` (a plan a line, or with --json a JSON object a line) or `--print NAME` (its
  /// YAML, or with --json an object holding it).
  func printPlans() {
    if let print, let text = BuiltInPlans.yaml.first(where: { $0.name == print })?.text {
      if json {
        Output.jsonLine(#"{"name":\#(JSONText.quoted(print)),"yaml":\#(JSONText.quoted(text))}"#)
      } else {
        Output.line(text)
      }
      return
    }
    for name in BuiltInPlans.names {
      let description = BuiltInPlans.plan(name)?.description ?? ""
      if json {
        Output.jsonLine(
          #"{"name":\#(JSONText.quoted(name)),"description":\#(JSONText.quoted(description))}"#)
      } else {
        Output.line("\(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(description)")
      }
    }
  }

  /// The ask itself is on the step's line: here only the wait for Enter.
  static func awaitEnter(
    yes: Bool, input: AsyncStream<String>, say: @Sendable (String) -> Void
  ) async {
    guard !yes else { return }
    say("  press Enter when done")
    for await _ in input { return }
  }

  func writeReports(_ result: QAReport) throws {
    do {
      if let report { try OutputFile.write(QAReportText.markdown(result), to: report) }
      if let junit { try OutputFile.write(QAReportText.junit(result), to: junit) }
    } catch {
      Output.error("regctl qa: \(error)")
      throw ExitCode(1)
    }
    let written = [report, junit].compactMap { $0 }
    if json {
      Output.jsonLine(QAReportText.json(result))
    } else if report != nil {
      // The report is in its file: the terminal gets the verdict in a line.
      Output.line(QAReportText.summaryLine(result, written: written.map(TerminalText.escaped)))
    } else {
      Output.line(QAReportText.markdown(result))
    }
  }
}

/// The run's progress, a line a step: what it waits for, and when the SDK may register next.
final class QAProgressLine: Sendable {
  let total: Int
  private let announced = Mutex<Set<Int>>([])
  /// Where a line goes: standard output, or standard error under --json.
  private let say: @Sendable (String) -> Void

  init(total: Int, say: @escaping @Sendable (String) -> Void) {
    self.total = total
    self.say = say
  }

  func show(_ progress: QAProgress) {
    switch progress {
    case .started(let step):
      say("step \(step.number)/\(total): \(TerminalText.escaped(step.summary))")
    case .waiting(let step, let next, let deadline):
      // Once a step, and again when the SDK's next allowed send is known.
      let key = step.number * 2 + (next == nil ? 0 : 1)
      guard announced.withLock({ $0.insert(key).inserted }) else { return }
      say(
        "  waiting until \(LiveLine.time(deadline, in: .system))"
          + (next.map { "; the SDK may register next at \(LiveLine.time($0, in: .system))" } ?? ""))
    case .finished(let result):
      say("  \(result.verdict.rawValue)")
      for line in result.evidence.prefix(5) { say("    \(TerminalText.escaped(line))") }
    }
  }
}

/// A line for each registration as it arrives during a QA run (time, device, status, what it
/// changed, findings), and when its SDK may register next: the tester sees the app work.
enum QARegistrationFeed {
  static func follow(_ server: LocalEngagementServer, say: @Sendable (String) -> Void) async {
    var shown: [String: Int] = [:]
    let watched = server.changes.signal(.watched)
    while !Task.isCancelled {
      let generation = watched.generation
      for device in await server.watchedDevices(newest: 20).reversed() {
        let already = shown[device.deviceID] ?? 0
        guard device.registrationCount > already else { continue }
        let fresh = device.registrations.suffix(device.registrationCount - already)
        for entry in fresh {
          let findings = entry.findings.map { "\($0.code) (\($0.severity.rawValue))" }
          say(
            "  \(LiveLine.time(entry.at, in: .system))  \(TerminalText.escaped(device.deviceID))  "
              + (entry.status.map(String.init) ?? "no answer")
              // What it carried, as the evidence and the timeline say it (escaped there).
              + (entry.changes.isEmpty ? "" : "  " + entry.changes.joined(separator: "; "))
              + (findings.isEmpty ? "" : "  " + findings.joined(separator: ", ")))
        }
        shown[device.deviceID] = device.registrationCount
        if let next = device.nextSend {
          say(
            "  its SDK may register next at \(LiveLine.time(next.at, in: .system)) (\(TerminalText.escaped(next.why)))"
          )
        }
      }
      await server.clock.sleep(until: nil, orUntil: watched, movesPast: generation)
    }
  }
}
