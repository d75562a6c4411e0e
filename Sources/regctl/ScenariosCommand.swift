import ArgumentParser
import Scenarios
import Session
import SessionValues
import ToolSupport

struct ListScenarios: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenarios",
    abstract: "List the built-in scenarios, or print one as YAML to copy and edit.")

  @Argument(help: "A built-in to print as YAML.")
  var name: String?

  func run() async throws {
    if let name {
      guard let entry = BuiltInScenarios.named(name) else {
        throw ValidationError(ScenarioSource.Unknown(name: name).description)
      }
      Output.report(entry.yaml)
      return
    }
    let width = BuiltInScenarios.all.map(\.name.count).max() ?? 0
    for entry in BuiltInScenarios.all {
      let description: String
      do {
        description = try BuiltInScenarios.scenario(entry).description
      } catch {
        description = "(cannot be read: \(error))"
      }
      Output.report(
        entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + description)
    }
    Output.report("\nRun one: regctl run NAME   Print one: regctl scenarios NAME")
  }
}
