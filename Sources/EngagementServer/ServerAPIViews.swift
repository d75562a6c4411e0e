import Foundation
import RegistrationCore

/// The JSON shapes of the `/api` routes, as the OpenAPI document describes them.
enum ServerAPIViews {
  struct Contact: Encodable {
    var key: String
    var madeUp: Bool
    var orphaned: Bool
    var devices: [String]
    var createdAt: Double
    var orphanedAt: Double?
  }

  struct Device: Encodable {
    struct LastRegistration: Encodable {
      var id: Int
      var at: Double
    }
    var deviceID: String
    var token: String?
    var contactKey: String?
    var platform: String
    var active: Bool
    var inactiveReason: String?
    var pushEnabled: Bool
    var attributes: [String: String]
    var tags: [String]
    var lastRegistration: LastRegistration
  }

  struct Registration: Encodable {
    var id: Int
    var status: String
    var deviceID: String?
    var subscriberKey: String?
    var receivedAt: Double
    var processAt: Double
    var processedAt: Double?
    var reason: String?
    var contactKey: String?
  }

  struct Stats: Encodable {
    var distinctContacts: Int
    var orphanedContacts: Int
    var madeUpContacts: Int
    var devices: Int
    var activeDevices: Int
    var pending: Int
    var processed: Int
    var rejected: Int
    var received: Int
    var definedAttributes: [String]?
    var processingDelay: Double
    var fault: String?
  }

  static func contacts(_ snapshot: ServerSnapshot) -> [String: [Contact]] {
    [
      "contacts": snapshot.contacts.map { contact in
        Contact(
          key: contact.key, madeUp: contact.madeUp, orphaned: contact.orphanedAt != nil,
          devices: snapshot.devicesByContact[contact.key] ?? [],
          createdAt: contact.createdAt.seconds, orphanedAt: contact.orphanedAt?.seconds)
      }
    ]
  }

  static func devices(_ snapshot: ServerSnapshot) -> [String: [Device]] {
    [
      "devices": snapshot.devices.map { device in
        Device(
          deviceID: device.deviceID, token: device.token, contactKey: device.contactKey,
          platform: device.platform, active: device.active,
          inactiveReason: device.inactiveReason, pushEnabled: device.pushEnabled,
          attributes: device.attributes, tags: device.tags,
          lastRegistration: .init(
            id: device.lastRegistrationID, at: device.lastRegistrationAt.seconds))
      }
    ]
  }

  static func registrations(_ snapshot: ServerSnapshot, limit: Int) -> [String: [Registration]] {
    [
      "registrations": snapshot.registrations.suffix(limit).reversed().map { registration in
        Registration(
          id: registration.id, status: registration.status.rawValue,
          deviceID: registration.payload.deviceID,
          subscriberKey: registration.payload.subscriberKey,
          receivedAt: registration.receivedAt.seconds, processAt: registration.processAt.seconds,
          processedAt: registration.processedAt?.seconds, reason: registration.reason,
          contactKey: registration.contactKey)
      }
    ]
  }

  static func stats(_ snapshot: ServerSnapshot) -> Stats {
    let stats = snapshot.stats
    return Stats(
      distinctContacts: stats.distinctContacts, orphanedContacts: stats.orphanedContacts,
      madeUpContacts: stats.madeUpContacts, devices: stats.devices,
      activeDevices: stats.activeDevices, pending: stats.pending, processed: stats.processed,
      rejected: stats.rejected, received: stats.received,
      definedAttributes: snapshot.settings.definedAttributes?.sorted(),
      processingDelay: snapshot.settings.processingDelay, fault: snapshot.fault?.summary)
  }

  static func encode(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
  }
}
