import ArgumentParser
import RegistrationCore
import Session
import SessionValues
import ToolSupport

@main
struct RegCtl: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regctl",
    abstract: "RegScope's headless tool: the local Engagement server, scenarios, a command shell.",
    discussion: """
      The same registration engine as the regscope inspector, with no terminal UI. \
      Rules are numbered as in SPEC.md (R1-R8 for the device, S1-S7 for the server).
      """,
    version: RegScopeVersion.described,
    subcommands: [
      Run.self, ListScenarios.self, Shell.self, State.self, Serve.self, Judge.self, QA.self,
      FleetCommand.self, MCPCommand.self, TenantCommand.self,
    ])
}

extension RegCtl {
  static func main() async { await mainEscapingMessages() }
}
