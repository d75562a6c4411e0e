import ArgumentParser
import Foundation
import RegistrationCore
import Scenarios
import Session
import SessionHTTP
import SessionValues
import ToolSupport

struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run scenarios in virtual time and check their expectations.",
    discussion: """
      SCENARIO is a YAML file or the name of a built-in (see `regctl scenarios`). Time is \
      virtual: a 30-day outage runs in milliseconds. The local server runs in process; with \
      --http it runs on loopback and the engine talks to it over real HTTP. A scenario that \
      cannot be read is said (on standard error, and with --json as an error record) and the \
      others still run; several end with their total. Exits 1 when an expectation fails, 2 \
      when a scenario cannot be read.
      """)

  @Argument(help: "Scenario files or built-in names.")
  var scenarios: [String]

  @Flag(help: "Print the event stream, one JSON object a line.")
  var json = false

  @Flag(help: "Talk to the local server over loopback HTTP instead of in process.")
  var http = false

  @Flag(name: .shortAndLong, help: "Print only each scenario's result.")
  var quiet = false

  @OptionGroup var sdk: SDKOption

  func run() async throws {
    var (failed, unreadable) = (0, 0)
    // Each read as its turn comes: one that cannot be read is said in its place, and the
    // rest still run.
    for name in scenarios {
      let scenario: Scenario
      do {
        scenario = try ScenarioSource.load(name)
      } catch {
        if json { Output.jsonLine(TimelinePrinter.loadErrorJSON(error, name: name)) }
        Output.error("regctl: \(error)")
        unreadable += 1
        continue
      }
      let (json, quiet) = (self.json, self.quiet)
      if !json && !quiet {
        Output.report(
          "== "
            + TerminalText.escaped(
              "\(scenario.name): \(scenario.description)  [\(scenario.source)]")
        )
      }
      let report = try await ScenarioRunner.run(
        scenario, factory: SessionFactory(network: HTTPNetwork()), overHTTP: http, sdk: sdk.profile
      ) {
        item in
        if quiet { return }
        guard let line = TimelinePrinter.line(item, json: json) else { return }
        if json { Output.jsonLine(line) } else { Output.report(line) }
      }
      if !report.passed { failed += 1 }
      if json {
        Output.jsonLine(TimelinePrinter.summaryJSON(report))
      } else {
        Output.report(TimelinePrinter.summary(report) + (quiet ? "" : "\n"))
      }
    }
    if scenarios.count > 1 {
      let count = scenarios.count
      if json {
        Output.jsonLine(
          TimelinePrinter.totalJSON(scenarios: count, failed: failed, unreadable: unreadable))
      } else {
        Output.report(
          TimelinePrinter.total(scenarios: count, failed: failed, unreadable: unreadable))
      }
    }
    if unreadable > 0 { throw ExitCode(2) }
    if failed > 0 { throw ExitCode(1) }
  }
}

/// A scenario named on the command line: a file when one exists at that path, else a built-in.
enum ScenarioSource {
  struct Unknown: Error, CustomStringConvertible {
    var name: String
    var description: String {
      var text = "no scenario file or built-in named \"\(name)\""
      if let nearest = Suggestion.nearest(to: name, in: BuiltInScenarios.all.map(\.name)) {
        text += "; did you mean \"\(nearest)\"?"
      }
      return text + " (regctl scenarios lists the built-ins)"
    }
  }

  static func load(_ name: String) throws -> Scenario {
    guard let scenario = try BuiltInScenarios.load(name) else { throw Unknown(name: name) }
    return scenario
  }
}
