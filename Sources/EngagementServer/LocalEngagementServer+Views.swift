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

  /// What a receiver's screen shows, read in one turn of the actor: a registration is either
  /// in all of it (the counts, its device in the watch) or in none.
  public struct ReceiverReading: Sendable {
    public var server: ServerSnapshot
    /// The most recently seen first.
    public var watched: [DeviceWatch.Device]
    /// `adoptionNotice`.
    public var notice: String?
    public var now: Instant
  }

  public func receiverReading(limit: Int = 100, watched: Int = 200) -> ReceiverReading {
    let now = clock.now()
    return ReceiverReading(
      server: core.snapshot(limit: limit, now: now, storeProblem: storeProblem),
      watched: watch.newest(watched), notice: adoptionNotice, now: now)
  }

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
