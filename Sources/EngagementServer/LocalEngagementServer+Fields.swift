import EngagementCore
import RegistrationCore

/// "Why didn't my attribute arrive?", answered from what the server holds.
extension LocalEngagementServer {
  /// Each field's story for `deviceID`: nil when the server holds nothing of that device.
  public func fields(of deviceID: String) -> DeviceFieldStories? {
    let registrations = core.registrations.values.filter {
      InputRules.trimmed($0.payload.deviceID ?? "") == deviceID
    }
    let watched = watch.devices[deviceID]
    guard !registrations.isEmpty || watched != nil else { return nil }
    let device = core.devices[deviceID]
    let others = (device?.contactKey.map { core.devices(of: $0) } ?? [])
      .filter { $0 != deviceID }.compactMap { core.devices[$0] }
    let keys = Set(registrations.compactMap(\.payload.subscriberKey))
    let facts = FieldFacts(
      device: device, otherDevices: others,
      orphaned: keys.filter { core.contacts[$0]?.orphanedAt != nil },
      definedAttributes: core.settings.definedAttributes,
      profile: watched?.identity.profile ?? .documented, nextSend: watched?.nextSend)
    return DeviceFieldStories.build(deviceID: deviceID, registrations: registrations, facts: facts)
  }

  /// The same story as a short answer, most important first (`FieldExplanation`).
  public func explain(_ deviceID: String) -> [String]? {
    fields(of: deviceID).map { FieldExplanation.sentences($0) }
  }
}
