import EngagementCore
import RegistrationCore

/// What the server holds, read at one instant: bounded snapshots, counts and pages.
extension LocalEngagementServer {
  /// What the server holds, bounded: the newest `limit` contacts, devices and registrations
  /// (oldest first), the next few due for processing, and every count.
  public func snapshot(limit: Int = 100) -> ServerSnapshot {
    core.snapshot(limit: limit, now: clock.now(), storeProblem: storeProblem)
  }

  public func stats() -> ServerStats { core.stats() }

  /// The counts with the settings and the fault they depend on, read at one instant.
  public func overview() -> (stats: ServerStats, settings: ServerSettings, fault: ServerFault?) {
    (core.stats(), core.settings, core.fault)
  }

  public func contactsPage(limit: Int, before: String?) throws(UnknownCursor) -> ServerPage<
    ServerContact
  > {
    try core.contactsPage(limit: limit, before: before)
  }

  public func devicesPage(limit: Int, before: String?) throws(UnknownCursor) -> ServerPage<
    ServerDevice
  > {
    try core.devicesPage(limit: limit, before: before)
  }

  public func registrationsPage(limit: Int, before: Int?) -> ServerPage<ServerRegistration> {
    core.registrationsPage(limit: limit, before: before)
  }

  public func devices(of contactKey: String) -> [String] { core.devices(of: contactKey) }
}
