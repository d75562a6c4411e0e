import ArgumentParser
import EngagementCore
import EngagementServer
import RegistrationCore
import TenantAPI

/// `--tenant FILE`: the installed package's API integration a command asks the tenant with.
/// One loading for every command that takes it (serve, qa, judge, tenant check, regscope
/// --receive): the same file checks, the same words, the secret only ever masked.
public struct TenantOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Your Marketing Cloud tenant: a JSON file with client_id, client_secret, auth_base_uri, and optional account_id and rest_base_uri (docs/tenant.md).",
      discussion:
        "From Setup → Apps → Installed Packages → the package's API Integration (Server-to-Server). The secret is never printed; keep the file private (chmod 600).",
      valueName: "file"))
  public var tenant: String?

  @Option(help: "Seconds each request to the tenant may take, its whole answer included.")
  public var tenantTimeout: Double = 20

  public init() {}

  public func validate() throws {
    guard tenantTimeout > 0, tenantTimeout <= 600 else {
      throw ValidationError("--tenant-timeout must be more than 0 and at most 600 seconds")
    }
  }

  /// With --tenant the demographics are the tenant's: a table typed too is refused.
  public func checkAlone(typedTable: Bool) throws {
    if tenant != nil && typedTable {
      throw ValidationError(
        "give --tenant or --defined-attributes, not both: with --tenant the demographics are the tenant's"
      )
    }
  }

  /// The file read and a client for it, with what to say at start about the file.
  public func client() throws(TenantFile.Problem) -> (TenantClient, [String])? {
    guard let tenant else { return nil }
    let loaded = try TenantFile.load(path: tenant)
    return (TenantClient(loaded.credentials, deadline: tenantTimeout), loaded.warnings)
  }

  /// The tenant's MobilePush Demographics, read at start (nil without --tenant), each step
  /// said as it goes: the file's warnings, then the set's size and names. A tenant that
  /// cannot say them stops the start, with why.
  public func start(say: (String) -> Void) async throws -> TenantTable? {
    let made: (TenantClient, [String])?
    do {
      made = try client()
    } catch {
      throw ValidationError("\(error)")
    }
    guard let (client, warnings) = made else { return nil }
    for warning in warnings { say("warning: \(warning)") }
    let found: TenantDemographics
    do {
      found = try await client.demographics()
    } catch {
      throw ValidationError("--tenant: \(error)")
    }
    let table = TenantTable(client: client, demographics: found, warnings: warnings)
    say(table.described)
    return table
  }
}

/// The tenant's demographics as a command started with them, and the client to ask again.
public struct TenantTable: Sendable {
  public let client: TenantClient
  public let demographics: TenantDemographics
  /// What was said of the file at start (a file others can read), for a screen to say again.
  public let warnings: [String]

  /// The table processing and the judge use: the names, and the set they came from.
  public var names: Set<String> { Set(demographics.attributes) }

  /// What is said at start: the set, how many, which (names escaped), the package (masked).
  public var described: String {
    let count = demographics.attributes.count
    return
      "demographics from the tenant's \(TerminalText.escaped(demographics.setName)) (\(client.credentials.described)): "
      + "\(count) attribute\(count == 1 ? "" : "s"): "
      + demographics.attributes.map(TerminalText.escaped).joined(separator: ", ")
  }

  /// A receiver's settings with the tenant's table in place of a typed one.
  public func apply(to settings: inout ServerSettings) {
    settings.definedAttributes = names
    settings.demographicsSet = demographics.setName
  }

  /// Keeps the receiver's table current: every 15 minutes on the server's clock and on
  /// `POST /api/tenant/refresh` (and whatever else calls `server.refreshDemographics()`),
  /// each outcome told in a line. Cancel the task when the receiver stops.
  public func keepFresh(
    _ server: LocalEngagementServer, told: @escaping @Sendable (DemographicsRefresh.Outcome) -> Void
  ) -> Task<Void, Never> {
    let refresh = DemographicsRefresh(
      client: client, current: demographics, clock: server.clock,
      apply: { fresh in try? await server.defineAttributes(Set(fresh.attributes)) }, told: told)
    server.demographicsRefresh.withLock {
      $0 = {
        let outcome = await refresh.refresh()
        return DemographicsRefreshAnswer(
          refreshed: outcome.failure == nil, attributeSet: outcome.demographics.setName,
          attributes: outcome.demographics.attributes, added: outcome.added,
          removed: outcome.removed, problem: outcome.failure.map { "\($0)" })
      }
    }
    return Task { await refresh.run() }
  }
}

extension TenantCredentials {
  /// The package in a line: never the secret, only its mask.
  public var described: String {
    "client id \(TerminalText.escaped(clientID)), secret \(clientSecret.masked), auth \(TerminalText.escaped(authBaseURI))"
      + (accountID.map { ", account_id \(TerminalText.escaped($0))" } ?? "")
  }
}
