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
      --http it runs on loopback and the engine talks to it over real HTTP. \
      Exits 1 when an expectation fails, 2 when a scenario cannot be read.
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
    var loaded: [Scenario] = []
    for name in scenarios {
      do {
        loaded.append(try ScenarioSource.load(name))
      } catch {
        if json { Output.report(TimelinePrinter.loadErrorJSON(error, name: name)) }
        Output.error("regctl: \(error)")
        throw ExitCode(2)
      }
    }
    var failed = 0
    for scenario in loaded {
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
        if let line = TimelinePrinter.line(item, json: json) { Output.report(line) }
      }
      if !report.passed { failed += 1 }
      Output.report(
        json
          ? TimelinePrinter.summaryJSON(report)
          : TimelinePrinter.summary(report) + (quiet ? "" : "\n"))
    }
    if loaded.count > 1 {
      Output.report(
        json
          ? TimelinePrinter.totalJSON(scenarios: loaded.count, failed: failed)
          : "\(loaded.count - failed) passed, \(failed) failed")
    }
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
