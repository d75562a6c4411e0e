import EngagementServer
import Session

/// `D` on the receiver: the tenant's demographics read again now. The refresh says its own
/// outcome (the line `TenantTable.keepFresh` tells); only a receiver started without
/// `--tenant` is answered here.
enum TenantKey {
  /// What to say when there is no tenant to ask; nil when the refresh ran.
  static func refresh(_ session: any Session) async -> String? {
    guard let receiver = session as? ReceiverSession else { return nil }
    guard await receiver.server.refreshDemographics() == nil else { return nil }
    return
      "D: this receiver was started without --tenant: its demographics are the ones given (--defined-attributes) or none"
  }
}
