import RegistrationCore

/// A capture's registrations replayed through the server's processing (S2-S5), so `regctl
/// judge --fields` and `--explain` can tell each field's story as the local server tells it:
/// a capture holds what the tenant answered (201), not what its processing did later. Every
/// registration the tenant took (a 2xx) is received and processed in order, with the
/// demographics table given (none: every attribute accepted).
public struct FieldReplay: Sendable {
  private var core: EngagementServerCore

  public init(definedAttributes: Set<String>?) {
    core = EngagementServerCore(
      settings: ServerSettings(
        appID: "capture", accessToken: "capture", processingDelay: 0,
        definedAttributes: definedAttributes),
      seed: 1)
  }

  mutating func add(_ payload: RegistrationPayload, body: [UInt8], at: Instant) {
    _ = core.processDue(now: at)
    _ = core.receive(.valid(payload, body: body), now: at)
  }

  /// Each device's story, processing done; in the watch's order, the newest device first.
  public mutating func stories(_ watch: DeviceWatch) -> [DeviceFieldStories] {
    _ = core.processDue(now: Instant(.greatestFiniteMagnitude))
    let registrations = Array(core.registrations.values)
    return watch.newest(watch.devices.count).map { watched in
      let id = watched.deviceID
      let device = core.devices[id]
      let others = (device?.contactKey.map { core.devices(of: $0) } ?? [])
        .filter { $0 != id }.compactMap { core.devices[$0] }
      let mine = registrations.filter { InputRules.trimmed($0.payload.deviceID ?? "") == id }
      let keys = Set(mine.compactMap(\.payload.subscriberKey))
      return DeviceFieldStories.build(
        deviceID: id, registrations: mine,
        facts: FieldFacts(
          device: device, otherDevices: others,
          orphaned: keys.filter { core.contacts[$0]?.orphanedAt != nil },
          definedAttributes: core.settings.definedAttributes, profile: watched.identity.profile,
          nextSend: nil))
    }
  }
}
