import EngagementCore
import EngagementServer
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
      /// Nil while the registration waits for processing.
      var id: Int?
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
    /// The app as it registered: its SDK, findings and subscriber token (nil for a device
    /// this run of the server has not seen).
    var client: WatchViews.Client?
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

  struct Page<Item: Encodable>: Encodable {
    var items: [Item]
    var next: String?
    var key: String

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    /// `{"contacts": [...], "next": "..."}`: the list under its own name, as before paging.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(items, forKey: Key(stringValue: key))
      try container.encode(next, forKey: Key(stringValue: "next"))
    }
  }

  static func contacts(_ page: ServerPage<ServerContact>, devices: [String: [String]])
    -> Page<Contact>
  {
    Page(
      items: page.items.map { contact in
        Contact(
          key: contact.key, madeUp: contact.madeUp, orphaned: contact.orphanedAt != nil,
          devices: devices[contact.key] ?? [], createdAt: contact.createdAt.seconds,
          orphanedAt: contact.orphanedAt?.seconds)
      }, next: page.next, key: "contacts")
  }

  static func devices(
    _ page: ServerPage<ServerDevice>, watched: [String: DeviceWatch.Device] = [:],
    awaiting: [DeviceWatch.Device] = []
  ) -> Page<Device> {
    Page(
      items: awaiting.map(waitingDevice)
        + page.items.map { device in
          Device(
            deviceID: device.deviceID, token: device.token, contactKey: device.contactKey,
            platform: device.platform, active: device.active,
            inactiveReason: device.inactiveReason, pushEnabled: device.pushEnabled,
            attributes: device.attributes, tags: device.tags,
            lastRegistration: .init(
              id: device.lastRegistrationID, at: device.lastRegistrationAt.seconds),
            client: watched[device.deviceID].map { WatchViews.client($0) })
        }, next: page.next, key: "devices")
  }

  /// A device a real app registered that processing has not reached yet (S2).
  static func waitingDevice(_ device: DeviceWatch.Device) -> Device {
    let payload = device.lastSent
    return Device(
      deviceID: device.deviceID, token: payload?.deviceToken,
      contactKey: payload?.subscriberKey, platform: payload?.platform ?? "",
      active: false,
      inactiveReason: device.refusedCount == device.registrationCount
        ? device.lastRefusal?.summary : "waiting for processing (S2)",
      pushEnabled: payload?.pushEnabled ?? false,
      attributes: Dictionary(
        (payload?.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }),
      tags: payload?.tags ?? [], lastRegistration: .init(id: nil, at: device.lastSeen.seconds),
      client: WatchViews.client(device))
  }

  static func registrations(_ page: ServerPage<ServerRegistration>) -> Page<Registration> {
    Page(
      items: page.items.map { registration in
        Registration(
          id: registration.id, status: registration.status.rawValue,
          deviceID: registration.payload.deviceID,
          subscriberKey: registration.payload.subscriberKey,
          receivedAt: registration.receivedAt.seconds, processAt: registration.processAt.seconds,
          processedAt: registration.processedAt?.seconds, reason: registration.reason,
          contactKey: registration.contactKey)
      }, next: page.next, key: "registrations")
  }

  static func stats(_ stats: ServerStats, settings: ServerSettings, fault: ServerFault?) -> Stats {
    Stats(
      distinctContacts: stats.distinctContacts, orphanedContacts: stats.orphanedContacts,
      madeUpContacts: stats.madeUpContacts, devices: stats.devices,
      activeDevices: stats.activeDevices, pending: stats.pending, processed: stats.processed,
      rejected: stats.rejected, received: stats.received,
      definedAttributes: settings.definedAttributes?.sorted(),
      processingDelay: settings.processingDelay, fault: fault?.summary)
  }

  static func encode(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return JSONText.escapingInvisibles(Array((try? encoder.encode(value)) ?? Data("{}".utf8)))
  }
}
