import Clocks
import RegistrationCore

/// The tenant's MobilePush Demographics kept current on a receiver: asked again every 15
/// minutes on the receiver's clock, and whenever asked (a key, an API call). A failed refresh
/// keeps the table it had: the receiver never falls back to accepting every attribute.
public actor DemographicsRefresh {
  /// How long a table is used before the tenant is asked again.
  public static let interval: Double = 15 * 60

  public enum Trigger: String, Sendable {
    case schedule = "every 15 minutes"
    case asked = "asked"
  }

  /// What one refresh found.
  public struct Outcome: Sendable {
    public var trigger: Trigger
    /// The table in use after it: the tenant's new one, or the one kept on a failure.
    public var demographics: TenantDemographics
    public var added: [String] = []
    public var removed: [String] = []
    /// Why the tenant could not answer; the table above was kept.
    public var failure: TenantFailure?

    /// The refresh in a line, as a receiver says it (attribute names escaped and clipped).
    public var described: String {
      let set = TerminalText.clipped(demographics.setName)
      if let failure {
        return
          "demographics not refreshed (\(trigger.rawValue)): \(failure); still using the tenant's \(set) as last read (\(demographics.attributes.count) attributes)"
      }
      let changes =
        added.isEmpty && removed.isEmpty
        ? "unchanged"
        : ([added.isEmpty ? nil : "added " + Self.names(added)]
          + [removed.isEmpty ? nil : "removed " + Self.names(removed)]).compactMap { $0 }
          .joined(separator: "; ")
      return
        "demographics refreshed from the tenant's \(set) (\(trigger.rawValue)): \(demographics.attributes.count) attributes, \(changes)"
    }

    static func names(_ names: [String]) -> String {
      names.map { TerminalText.clipped($0) }.joined(separator: ", ")
    }
  }

  private let client: TenantClient
  private let clock: any EngineClock
  private let apply: @Sendable (TenantDemographics) async -> Void
  private let told: @Sendable (Outcome) -> Void
  private var current: TenantDemographics
  private var lastAsked: Instant
  private var running: Task<Outcome, Never>?

  /// `current` is the table read at start, in use from `clock.now()`; `apply` puts a new one
  /// in use; `told` hears every refresh, scheduled or asked, changed or not.
  public init(
    client: TenantClient, current: TenantDemographics, clock: any EngineClock,
    apply: @escaping @Sendable (TenantDemographics) async -> Void,
    told: @escaping @Sendable (Outcome) -> Void
  ) {
    self.client = client
    self.current = current
    self.clock = clock
    self.apply = apply
    self.told = told
    lastAsked = clock.now()
  }

  public var demographics: TenantDemographics { current }

  /// Asks the tenant now. A refresh already under way is joined, not doubled.
  public func refresh(_ trigger: Trigger = .asked) async -> Outcome {
    if let running { return await running.value }
    let (client, old) = (self.client, current)
    let task = Task { () -> Outcome in
      do throws(TenantFailure) {
        let fresh = try await client.demographics()
        let before = Set(old.attributes)
        let after = Set(fresh.attributes)
        return Outcome(
          trigger: trigger, demographics: fresh,
          added: fresh.attributes.filter { !before.contains($0) },
          removed: old.attributes.filter { !after.contains($0) })
      } catch {
        return Outcome(trigger: trigger, demographics: old, failure: error)
      }
    }
    running = task
    let outcome = await task.value
    running = nil
    lastAsked = clock.now()
    if outcome.failure == nil {
      current = outcome.demographics
      await apply(outcome.demographics)
    }
    told(outcome)
    return outcome
  }

  /// Refreshes every `interval` after the last refresh (an asked one restarts the wait) until
  /// the task is cancelled.
  public func run() async {
    while !Task.isCancelled {
      let due = lastAsked + Self.interval
      do {
        try await clock.sleep(until: due)
      } catch {
        return
      }
      if clock.now() >= lastAsked + Self.interval { _ = await refresh(.schedule) }
    }
  }
}
