import Synchronization

/// What a refresh of the tenant's demographics (`POST /api/tenant/refresh`) answers.
public struct DemographicsRefreshAnswer: Sendable, Encodable {
  /// False when the tenant could not answer: the table in use was kept.
  public var refreshed: Bool
  /// The tenant's attribute set the table is read from.
  public var attributeSet: String
  /// The names in use after the refresh.
  public var attributes: [String]
  public var added: [String]
  public var removed: [String]
  /// Why the tenant could not answer, in words.
  public var problem: String?

  public init(
    refreshed: Bool, attributeSet: String, attributes: [String], added: [String],
    removed: [String], problem: String?
  ) {
    self.refreshed = refreshed
    self.attributeSet = attributeSet
    self.attributes = attributes
    self.added = added
    self.removed = removed
    self.problem = problem
  }
}

/// Reads the tenant's demographics again and puts them in use.
public typealias DemographicsRefresher = @Sendable () async -> DemographicsRefreshAnswer

extension LocalEngagementServer {
  /// Whether the demographics are a tenant's (`--tenant`): then no table is typed over them.
  public nonisolated var hasTenant: Bool { demographicsRefresh.withLock { $0 != nil } }

  /// The tenant's demographics read again now; nil when the server was started without a
  /// tenant (its table is the one typed, or none).
  public nonisolated func refreshDemographics() async -> DemographicsRefreshAnswer? {
    guard let refresh = demographicsRefresh.withLock({ $0 }) else { return nil }
    return await refresh()
  }
}
