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
      The same registration engine as the regscope inspector, with no terminal UI, for \
      scripts and CI. Rules are numbered as in SPEC.md (R1-R8 for the device, S1-S7 for the \
      server). Each subcommand's options: regctl help SUBCOMMAND, or man regctl for them all.

      EXAMPLES:
        regctl run backoff-30-day-outage
        regctl run --json --sdk android my-scenario.yaml
        regctl serve --port 8080 --har session.har
        regctl judge --fail-on warning session.har
        regctl qa release-check --junit qa.xml
        regctl fleet --devices 10000 --outage 5d+6h:503
        regctl state --import sdk-state.json
        regctl bundle --receiver http://127.0.0.1:8080 --redact -o ticket.zip

      EXIT STATUS:
        0    done, and everything checked held
        1    a check failed: an expectation (run), a finding at --fail-on
             (judge), a QA step (qa), the tenant's answer (tenant check); or an
             output file could not be written
        2    an input could not be read: a scenario, plan, capture, dump or
             --tenant file
        64   a wrong option (the message says which)
        130  a QA run was stopped before its end (its report is written)
      """,
    version: RegScopeVersion.described,
    subcommands: [
      Run.self, ListScenarios.self, Shell.self, State.self, Serve.self, Judge.self, QA.self,
      FleetCommand.self, MCPCommand.self, TenantCommand.self, BundleCommand.self,
    ])
}

extension RegCtl {
  static func main() async { await mainEscapingMessages() }
}
