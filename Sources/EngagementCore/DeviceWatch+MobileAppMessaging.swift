import RegistrationCore

extension DeviceWatch {
  /// A Mobile App Messaging call on its device's timeline, with its fields. The device is made
  /// when it has not registered with MobilePush yet: an app may start that SDK first, and a
  /// tester looking it up must find it. Never judged: its rules are not MobilePush's.
  mutating func recordMobileAppMessaging(
    route: String, kind: String, deviceID: String, body: [UInt8], facts: RequestFacts,
    at now: Instant, status: Int?
  ) {
    var device =
      devices.take(deviceID)
      ?? Device(
        deviceID: deviceID, identity: identity(facts, bodyPlatform: nil), firstSeen: now,
        lastSeen: now, subscriberToken: makeToken())
    device.otherRoutes[route, default: 0] += 1
    device.lastSeen = now
    if let event = MobileAppMessagingEvent.read(kind: kind, body: body, at: now, status: status) {
      device.mobileAppMessaging.append(event)
      let excess = device.mobileAppMessaging.count - Self.timelineLimit
      if excess > 0 { device.mobileAppMessaging.removeFirst(excess) }
    }
    store(device)
  }
}
