import RegistrationCore

/// Everything the server holds at one instant, for the inspector and the HTTP API.
public struct ServerSnapshot: Sendable {
  public var now: Instant
  public var contacts: [ServerContact]
  public var devices: [ServerDevice]
  /// The newest registrations, oldest first.
  public var registrations: [ServerRegistration]
  /// The next registrations due for processing, soonest first.
  public var waiting: [WaitingRegistration]
  public var stats: ServerStats
  public var fault: ServerFault?
  public var settings: ServerSettings
  public var storeProblem: String?
  public var devicesByContact: [String: [String]]
}

extension EngagementServerCore {
  /// What the server holds, bounded: the newest `limit` contacts, devices and registrations
  /// (oldest first), the next few due for processing, and every count.
  public func snapshot(limit: Int, now: Instant, storeProblem: String?) -> ServerSnapshot {
    let contacts = Array(contacts.values.suffix(limit))
    var devicesByContact: [String: [String]] = [:]
    for contact in contacts { devicesByContact[contact.key] = devices(of: contact.key) }
    return ServerSnapshot(
      now: now, contacts: contacts, devices: Array(devices.values.suffix(limit)),
      registrations: Array(registrations.values.suffix(min(limit, settings.registrationWindow))),
      waiting: nextWaiting(5),
      stats: stats(), fault: fault, settings: settings, storeProblem: storeProblem,
      devicesByContact: devicesByContact)
  }
}
