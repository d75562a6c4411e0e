import ArgumentParser
import RegistrationCore
import TenantAPI
import ToolSupport

struct TenantCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenant",
    abstract: "Ask your Marketing Cloud tenant what it holds (docs/tenant.md).",
    discussion: """
      regctl tenant check --tenant FILE [--app-id ID] [--tenant-timeout SECONDS] \
      authenticates with the installed package's API integration and prints the MobilePush \
      Demographics attributes, or says what is wrong.
      """,
    subcommands: [TenantCheck.self])
}

struct TenantCheck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check a --tenant file: the token, the Contacts scope, the demographics.",
    discussion: """
      Exit 0: all good. 1: the tenant answered but something is wrong (no MobilePush \
      Demographics set, a package without the Contacts read scope). 2: it could not be \
      checked (a bad file, an unreachable host, refused credentials, a malformed or late answer).
      """)

  @OptionGroup var tenant: TenantOption

  @Option(name: .customLong("app-id"), help: "The app id (etAppId) the app is built with.")
  var appID: String?

  func validate() throws {
    if tenant.tenant == nil { throw ValidationError("give the tenant: --tenant FILE") }
  }

  func run() async throws {
    let client: TenantClient
    do {
      guard let (made, warnings) = try tenant.client() else { throw ExitCode(2) }
      client = made
      for warning in warnings { Output.line("warning: \(warning)") }
    } catch let problem as TenantFile.Problem {
      Output.error("regctl tenant check: \(problem)")
      throw ExitCode(2)
    }
    Output.line("tenant: \(client.credentials.described)")
    do {
      let found = try await client.demographics()
      // Every text from the tenant (or the file, or a flag) escaped and clipped: a name with a
      // newline in it cannot print a line of its own (`ok: ...`).
      Output.line(
        "token: issued by \(TerminalText.clipped(client.credentials.authBaseURI + "/v2/token", limit: 200))"
      )
      Output.line(
        "\(TerminalText.clipped(found.setName)): \(found.attributes.count) attribute\(found.attributes.count == 1 ? "" : "s"): "
          + found.attributes.map { TerminalText.clipped($0) }.joined(separator: ", "))
      if let appID {
        Output.line(
          "app \(TerminalText.clipped(appID)): not checked against the tenant yet (the attributes above are what its registrations may send)"
        )
      }
      Output.line("ok: the package can authenticate and read the demographics")
    } catch {
      Output.error("regctl tenant check: \(error)")
      throw ExitCode(error.isTenantProblem ? 1 : 2)
    }
  }
}
