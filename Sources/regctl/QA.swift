import ArgumentParser
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import Scenarios
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

      Exit status: 0 when every step passed, 1 when one failed or timed out, 2 when the plan \
      cannot be read.
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

  @Flag(help: "Print the report as JSON instead of Markdown.")
  var json = false

  @OptionGroup(title: "The app it accepts") var app: AppCredentials

  @OptionGroup var appConfig: AppConfigFile

  @OptionGroup var receiver: ReceiverArguments

  func validate() throws {
    if list || print != nil { return }
    guard plan != nil else { throw ValidationError("give a plan: a file, or a name from --list") }
    _ = try receiverApp()
    if let problem = HTTPNetwork.problem(with: receiver.options) {
      throw ValidationError(problem)
    }
  }

  func run() async throws {
    if list {
      for name in BuiltInPlans.names {
        Output.line(
          "\(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(BuiltInPlans.plan(name)?.description ?? "")"
        )
      }
      return
    }
    if let print {
      guard let text = BuiltInPlans.yaml.first(where: { $0.name == print })?.text else {
        Output.error(
          "regctl qa: no built-in plan \"\(TerminalText.escaped(print))\" (--list lists them)")
        throw ExitCode(2)
      }
      Output.line(text)
      return
    }
    let loaded = try loadPlan()
    let session = try await openReceiver()
    Output.line(
      "regctl qa: \(loaded.name), \(loaded.steps.count) steps; point the app at \(session.url)")
    let yes = self.yes
    // One reader of standard input for the whole run: each ask takes the next line.
    let input = yes ? AsyncStream { $0.finish() } : StandardInput.lines()
    let runner = QARunner(
      server: session.server,
      ask: { step, text in await Self.ask(step, text, yes: yes, input: input) },
      progress: QAProgressLine(total: loaded.steps.count).show)
    let result = await runner.run(loaded)
    await session.stop()
    try writeReports(result)
    if !result.passed { throw ExitCode(1) }
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

  func openReceiver() async throws -> ReceiverSession {
    let settings = try receiverApp().settings
    do {
      return try await SessionFactory(network: HTTPNetwork()).receiver(
        ReceiverSetup(
          settings: settings, store: try ServerStore.inMemory(), options: receiver.options),
        log: RunLog(limit: RunLog.liveLimit))
    } catch {
      Output.error("regctl qa: \(error)")
      throw ExitCode(2)
    }
  }

  static func ask(_ step: QAStep, _ text: String, yes: Bool, input: AsyncStream<String>) async {
    Output.line("  ask: \(TerminalText.escaped(text))")
    guard !yes else { return }
    Output.line("  press Enter when done")
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
    Output.line(json ? QAReportText.json(result) : QAReportText.markdown(result))
  }
}

/// The run's progress, a line a step: what it waits for, and when the SDK may register next.
final class QAProgressLine: Sendable {
  let total: Int
  private let announced = Mutex<Set<Int>>([])

  init(total: Int) { self.total = total }

  func show(_ progress: QAProgress) {
    switch progress {
    case .started(let step):
      Output.line("step \(step.number)/\(total): \(TerminalText.escaped(step.summary))")
    case .waiting(let step, let next, let deadline):
      // Once a step, and again when the SDK's next allowed send is known.
      let key = step.number * 2 + (next == nil ? 0 : 1)
      guard announced.withLock({ $0.insert(key).inserted }) else { return }
      let until = CaptureText.stamp(deadline)
      Output.line(
        "  waiting until \(until)"
          + (next.map { "; the SDK may register next at \(CaptureText.stamp($0))" } ?? ""))
    case .finished(let result):
      Output.line("  \(result.verdict.rawValue)")
      for line in result.evidence.prefix(5) { Output.line("    \(TerminalText.escaped(line))") }
    }
  }
}
