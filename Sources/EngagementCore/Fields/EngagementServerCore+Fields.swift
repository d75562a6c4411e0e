import RegistrationCore

extension EngagementServerCore {
  /// What a device's field stories are read from: its registrations this core still holds
  /// and what processing left (the device, the contact's other devices, orphans, the table).
  /// Cheap to take (a filter of the window); the story is built from it outside whatever
  /// holds the core (`DeviceFieldStories.build`).
  public func fieldSources(of deviceID: String, profile: SDKProfile, nextSend: NextSend?)
    -> (registrations: [ServerRegistration], facts: FieldFacts)
  {
    let mine = registrations(of: deviceID)
    let device = devices[deviceID]
    let others = (device?.contactKey.map { self.devices(of: $0) } ?? [])
      .filter { $0 != deviceID }.compactMap { devices[$0] }
    let keys = Set(mine.compactMap(\.payload.subscriberKey))
    var facts = FieldFacts(
      device: device, otherDevices: others,
      orphaned: keys.filter { contacts[$0]?.orphanedAt != nil },
      definedAttributes: settings.definedAttributes, profile: profile, nextSend: nextSend)
    facts.contactMadeUp = device?.contactKey.flatMap { contacts[$0]?.madeUp } ?? false
    facts.demographicsSet = settings.demographicsSet
    return (mine, facts)
  }

  /// The device's registrations this core still holds, oldest first (the window is kept in
  /// order of arrival, which is the order of their ids).
  public func registrations(of deviceID: String) -> [ServerRegistration] {
    registrations.values.filter { InputRules.trimmed($0.payload.deviceID ?? "") == deviceID }
  }

  /// Each field's story for `deviceID`: what the receiver's API and a replayed capture both
  /// tell.
  public func fieldStories(of deviceID: String, profile: SDKProfile, nextSend: NextSend?)
    -> DeviceFieldStories
  {
    let (mine, facts) = fieldSources(of: deviceID, profile: profile, nextSend: nextSend)
    return DeviceFieldStories.build(deviceID: deviceID, registrations: mine, facts: facts)
  }
}
