import RegistrationCore

extension EngagementServerCore {
  /// Each field's story for `deviceID`, from the registrations this core still holds and the
  /// devices its processing left: what the receiver's API and a replayed capture both tell.
  public func fieldStories(of deviceID: String, profile: SDKProfile, nextSend: NextSend?)
    -> DeviceFieldStories
  {
    let mine = registrations.values.filter {
      InputRules.trimmed($0.payload.deviceID ?? "") == deviceID
    }
    let device = devices[deviceID]
    let others = (device?.contactKey.map { self.devices(of: $0) } ?? [])
      .filter { $0 != deviceID }.compactMap { devices[$0] }
    let keys = Set(mine.compactMap(\.payload.subscriberKey))
    var facts = FieldFacts(
      device: device, otherDevices: others,
      orphaned: keys.filter { contacts[$0]?.orphanedAt != nil },
      definedAttributes: settings.definedAttributes, profile: profile, nextSend: nextSend)
    facts.contactMadeUp = device?.contactKey.flatMap { contacts[$0]?.madeUp } ?? false
    return DeviceFieldStories.build(deviceID: deviceID, registrations: mine, facts: facts)
  }
}
