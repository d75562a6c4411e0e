import EngagementServer

/// `D` on the receiver: the tenant's demographics read again now. The refresh says its own
/// outcome (the line the receiver session's tenant work tells); only a receiver started without
/// `--tenant` is answered here.
enum TenantKey {
  /// What to say when there is no tenant to ask; nil when the refresh ran.
  static func refresh(_ server: LocalEngagementServer?) async -> String? {
    guard let server, await server.refreshDemographics() == nil else { return nil }
    return
      "D: this receiver was started without --tenant: its demographics are the ones given (--defined-attributes) or none"
  }
}
