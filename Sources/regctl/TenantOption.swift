import ArgumentParser
import TenantAPI
import ToolSupport

/// `--tenant FILE`: the installed package's API integration a command asks the tenant with.
struct TenantOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Your Marketing Cloud tenant: a JSON file with client_id, client_secret, auth_base_uri, and optional account_id and rest_base_uri (docs/tenant.md).",
      discussion:
        "From Setup → Apps → Installed Packages → the package's API Integration (Server-to-Server). The secret is never printed; keep the file private (chmod 600).",
      valueName: "file"))
  var tenant: String?

  @Option(help: "Seconds each request to the tenant may take, its whole answer included.")
  var tenantTimeout: Double = 20

  func validate() throws {
    guard tenantTimeout > 0, tenantTimeout <= 600 else {
      throw ValidationError("--tenant-timeout must be more than 0 and at most 600 seconds")
    }
  }

  /// The file read and a client for it, with what to say at start about the file.
  func client() throws(TenantFile.Problem) -> (TenantClient, [String])? {
    guard let tenant else { return nil }
    let loaded = try TenantFile.load(path: tenant)
    return (TenantClient(loaded.credentials, deadline: tenantTimeout), loaded.warnings)
  }
}

extension TenantCredentials {
  /// The package in a line: never the secret, only its mask.
  var described: String {
    "client id \(clientID), secret \(clientSecret.masked), auth \(authBaseURI)"
      + (accountID.map { ", account_id \($0)" } ?? "")
  }
}

extension TenantOption {
  /// The tenant's MobilePush Demographics attribute names, for a receiver started with
  /// `--tenant` (nil without it), each step said as it starts: the file's warnings, the set's
  /// size and names. A tenant that cannot say them stops the start, with why.
  func demographics(quiet: Bool) async throws -> Set<String>? {
    let made: (TenantClient, [String])?
    do {
      made = try client()
    } catch {
      throw ValidationError("\(error)")
    }
    guard let (client, warnings) = made else { return nil }
    for warning in warnings { Output.line("warning: \(warning)") }
    let found: TenantDemographics
    do {
      found = try await client.demographics()
    } catch {
      throw ValidationError("--tenant: \(error)")
    }
    if !quiet {
      Output.line(
        "demographics from the tenant's \(found.setName) (\(client.credentials.described)): "
          + "\(found.attributes.count) attribute\(found.attributes.count == 1 ? "" : "s"): "
          + found.attributes.joined(separator: ", "))
    }
    return Set(found.attributes)
  }
}
