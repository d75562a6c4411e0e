import ArgumentParser
import EngagementCore
import EngagementServer
import RegistrationCore
import Session
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
  /// cannot say them stops the start, with why. `readBackAfter`: a receiver's
  /// `--read-back-after` (`ReadBackOption`).
  public func start(
    readBackAfter: Double = ReadBackQueue.defaultWindow, say: (String) -> Void
  ) async throws -> TenantTable? {
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
    let table = TenantTable(
      client: client, demographics: found, warnings: warnings, readBackAfter: readBackAfter)
    say(table.described)
    return table
  }
}

/// `--read-back-after SECONDS`: when a receiver that relays (`--upstream`) asks the tenant
/// whether a registration arrived. Only serve, qa and regscope --receive take it: judge and
/// tenant check ask nothing after a 2xx, so they do not offer it.
public struct ReadBackOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "With --tenant and --upstream: seconds after the tenant's 2xx before RegScope asks it whether the registration arrived.",
      discussion:
        "The tenant's processing takes 5 to 15 minutes; asked sooner, a registration on its way reads as not arrived.",
      valueName: "seconds"))
  public var readBackAfter: Double = ReadBackQueue.defaultWindow

  public init() {}

  public func validate() throws {
    guard readBackAfter >= 1, readBackAfter <= 86_400 else {
      throw ValidationError("--read-back-after must be from 1 to 86400 seconds (a day)")
    }
  }
}

/// The tenant's demographics as a command started with them, and the client to ask again.
public struct TenantTable: Sendable {
  public let client: TenantClient
  public let demographics: TenantDemographics
  /// What was said of the file at start (a file others can read), for a screen to say again.
  public let warnings: [String]
  /// Seconds after a relayed registration's 2xx before the tenant is asked what it holds.
  public var readBackAfter: Double = ReadBackQueue.defaultWindow

  /// The table processing and the judge use: the names, and the set they came from.
  public var names: Set<String> { Set(demographics.attributes) }

  /// What is said at start: the set, how many, which (names escaped), the package (masked).
  public var described: String {
    let count = demographics.attributes.count
    return
      "demographics from the tenant's \(TerminalText.clipped(demographics.setName)) (\(client.credentials.described)): "
      + "\(count) attribute\(count == 1 ? "" : "s"): "
      + demographics.attributes.map { TerminalText.clipped($0) }.joined(separator: ", ")
  }

  /// A receiver's settings with the tenant's table in place of a typed one.
  public func apply(to settings: inout ServerSettings) {
    settings.definedAttributes = names
    settings.demographicsSet = demographics.setName
  }

  /// The tenant as a receiver session takes it (`ReceiverSetup.tenant`): one start-up for
  /// serve, qa and regscope --receive.
  public func hookup(
    relayed: Bool, told: @escaping @Sendable (DemographicsRefresh.Outcome) -> Void
  ) -> TenantHookup {
    TenantHookup(table: self, relayed: relayed, told: told)
  }

  /// Keeps the receiver's table current: every 15 minutes on the server's clock and on
  /// `POST /api/tenant/refresh` (and whatever else calls `server.refreshDemographics()`),
  /// each outcome told in a line; installed at once, the returned work run by the session.
  ///
  /// `relayed` (`--upstream`): each device the tenant answered 2xx is also looked up once
  /// `readBackAfter` has passed, and what it holds compared with what the app sent
  /// (`LocalEngagementServer+ReadBack`), each outcome said as the server's event.
  func attach(
    _ server: LocalEngagementServer, relayed: Bool,
    told: @escaping @Sendable (DemographicsRefresh.Outcome) -> Void
  ) async -> @Sendable () async -> Void {
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
    guard relayed else { return { await refresh.run() } }
    await server.startReadBacks(window: readBackAfter)
    let lookup = pushAddressLookup
    return {
      await withDiscardingTaskGroup { group in
        group.addTask { await refresh.run() }
        group.addTask { await server.runReadBacks(lookup: lookup) }
      }
    }
  }

  /// What is said at start when the receiver relays: when the tenant is asked, how often.
  public var readBackDescribed: String {
    "did it arrive? the tenant is asked \(DurationText.describe(readBackAfter)) after each relayed 2xx (--read-back-after), \(ReadBackQueue.perMinute) lookups a minute at most"
  }

  /// The device's push address under the contact key (`TenantClient.pushAddressLookup`).
  var pushAddressLookup: PushAddressLookup { client.pushAddressLookup }
}

extension TenantCredentials {
  /// The package in a line: never the secret, only its mask.
  public var described: String {
    "client id \(TerminalText.escaped(clientID)), secret \(clientSecret.masked), auth \(TerminalText.escaped(authBaseURI))"
      + (accountID.map { ", account_id \(TerminalText.escaped($0))" } ?? "")
  }
}

/// `--tenant` on a receiver: the table it started with, whether it relays (then the read-back
/// runs too), and where each refresh is told.
public struct TenantHookup: ReceiverTenant {
  public let table: TenantTable
  public let relayed: Bool
  public let told: @Sendable (DemographicsRefresh.Outcome) -> Void

  public func attach(to server: LocalEngagementServer) async -> @Sendable () async -> Void {
    await table.attach(server, relayed: relayed, told: told)
  }
}
