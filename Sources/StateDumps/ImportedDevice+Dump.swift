import Foundation
import RegistrationCore
import SessionValues

/// Rebuilds a device from a shipped SDK's state dump, for the inspector to show read-only: the
/// record the dump's current registration describes, the last sent registration as the
/// acknowledged one, what differs between them as pending changes, and the retry alarm.
extension ImportedDevice {
  public init(_ reading: StateDumpReading, source: String) {
    let profile = reading.profile
    let current = reading.current
    let platform = current.platform.flatMap(Platform.init(loose:)) ?? profile.platform ?? .iOS
    let environment = DeviceEnvironment(
      deviceToken: current.deviceToken, platformVersion: current.platformVersion ?? "",
      appVersion: current.appVersion ?? "", sdkVersion: current.sdkVersion ?? "",
      hwid: current.hwid ?? "", locale: current.locale ?? "", language: current.language ?? "",
      // "-18000", or iOS's "-0060": Int reads both; anything else is shown as 0.
      timeZone: current.timeZone.flatMap { Int($0) } ?? 0, dst: current.dst ?? false,
      pushEnabled: current.pushEnabled ?? true, quietPushEnabled: current.quietPushEnabled ?? false,
      locationEnabled: current.locationEnabled ?? false,
      proximityEnabled: current.proximityEnabled ?? false, badge: current.badge)
    let deviceID = current.deviceID ?? ""
    var record = ContactRecord(
      contactKey: current.subscriberKey,
      device: DeviceFields(
        deviceID: deviceID, registrationId: current.registrationId ?? deviceID.lowercased(),
        etAppId: current.etAppId ?? "", platform: platform, environment: environment))
    for attribute in current.attributes ?? [] {
      if attribute.value.isEmpty {
        record.clearedAttributes.insert(attribute.key)
      } else {
        record.attributes[attribute.key] = attribute.value
      }
    }
    let tags = current.tags ?? []
    let own = Set(
      profile.systemTags(
        platform: platform, debugBuild: tags.contains("DEBUG"), hwid: environment.hwid))
    record.tags = Set(tags).subtracting(own)
    let at = reading.lastSentAt ?? .zero
    let pending = StateDumpImport.changes(from: reading.lastSent, to: current).enumerated().map {
      PendingChange(
        seq: $0.offset + 1, target: $0.element.target, firstAt: at, lastAt: at,
        summary: $0.element.summary)
    }
    var scheduler = SchedulerState()
    scheduler.nextSeq = pending.count + 1
    scheduler.lastSuccessAt = reading.lastSentAt
    scheduler.lastAttemptAt = reading.lastSentAt
    scheduler.sentWithoutContactKey =
      reading.lastSent != nil && reading.lastSent?.subscriberKey == nil
    if reading.lastSent == nil { scheduler.initialDueAt = at }
    if let alarm = reading.alarmAt {
      scheduler.retry = RetryState(
        failures: 1, nextAttemptAt: alarm, failedAt: reading.lastSentAt ?? alarm,
        lastStatus: nil, lastError: "the dump's retry alarm", needsFix: false)
    }
    let hashKind = profile.bodyHash
    let acknowledged = reading.lastSent.map {
      AcknowledgedRegistration(
        payload: $0, hash: BodyHash.digest($0.encodedBytes(), hashKind), at: at, status: 201)
    }
    self.init(
      source: source, profile: profile,
      state: RegistrationState(
        record: record, pending: pending, scheduler: scheduler, lastAcknowledged: acknowledged))
  }
}
