import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues

/// The stored state written as a shipped SDK dumps its own (SDK-FACTS.md, the SDK state dump):
/// Android's `getSdkState()` or iOS's `sfmc_getSDKState` sections. What a QA engineer pastes
/// into a ticket, so RegScope's state can sit beside the app's. The access token is never in it.
public enum SDKStateDump {
  public enum Format: String, CaseIterable, Sendable {
    case regscope, android, unified, ios
  }

  /// The unified SDK's version in its wrapper: 3.0.1 around 10.x (in `modules`), 1.0.5
  /// around 8.x and 9.x (flat); SDK-FACTS, "Across SDK majors".
  static let unifiedVersion = "3.0.1"
  static let flatUnifiedVersion = "1.0.5"

  /// Whether the device's SDK (the version its record names) dumps in the flat wrapper.
  static func dumpsFlat(_ state: RegistrationState) -> Bool {
    let version = state.record.device.environment.sdkVersion
    return (SDKVersionNumber.major(version) ?? 10) < 10
  }

  /// The dump as JSON text, keys sorted.
  /// `compact`: one line (`--json`), not indented for a person.
  public static func write(_ state: RegistrationState, format: Format, compact: Bool = false)
    -> String
  {
    let object: [String: Any]
    switch format {
    case .regscope: return ""
    case .android: object = android(state)
    case .unified where dumpsFlat(state):
      object = ["sfmcSDKVersion": flatUnifiedVersion, "PUSH": android(state)]
    case .unified:
      object = ["sfmcSDKVersion": unifiedVersion, "modules": ["ENGAGEMENT": android(state)]]
    case .ios: object = ios(state)
    }
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object,
        options: compact
          ? [.sortedKeys, .withoutEscapingSlashes]
          : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
    return JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self))
  }

  static func settings(_ state: RegistrationState, _ profile: SDKProfile) -> MachineSettings {
    let device = state.record.device
    return MachineSettings(platform: device.platform, etAppId: device.etAppId, profile: profile)
  }

  /// The registration as this SDK would send it now, and the last one the server acknowledged.
  static func bodies(_ state: RegistrationState, _ profile: SDKProfile) -> (Any, Any) {
    let current = RegistrationPayload(record: state.record, settings: settings(state, profile))
    return (json(current), state.lastAcknowledged.map { json($0.payload) } ?? NSNull())
  }

  static func json(_ payload: RegistrationPayload) -> Any {
    (try? JSONSerialization.jsonObject(with: payload.encodedBody())) ?? NSNull()
  }

  static func android(_ state: RegistrationState) -> [String: Any] {
    let (current, last) = bodies(state, .android)
    var alarms: [String: Any] = [:]
    if let retry = state.scheduler.retry {
      alarms["REGISTRATION"] = stamp(retry.nextAttemptAt)
    }
    return [
      "initConfig": ["applicationId": state.record.device.etAppId],
      "initStatus": ["status": "SUCCESS"],
      "RegistrationManager": [
        "current_registration": current,
        "last_registration_sent": last,
        "last_sent_timestamp": state.lastAcknowledged.map { stamp($0.at) as Any } ?? NSNull(),
      ],
      "AlarmScheduler": ["pending_alarms": alarms],
      "RequestManager": [:] as [String: Any],
    ]
  }

  static func ios(_ state: RegistrationState) -> [String: Any] {
    let (current, last) = bodies(state, .ios)
    let environment = state.record.device.environment
    var retry: [String: Any] = [:]
    if let pending = state.scheduler.retry {
      retry["Registration"] = stamp(pending.nextAttemptAt)
    }
    return [
      "Registration Details": [
        // A credential: shown masked, as everywhere else.
        "Subscriber Token": state.scheduler.subscriberToken.map { AccessToken($0).masked as Any }
          ?? NSNull(),
        "Current Registration": current,
        "Last Successfully Sent Registration": last,
        "Date of Last Successful Registration": state.lastAcknowledged.map { stamp($0.at) as Any }
          ?? NSNull(),
      ],
      "Device Details": [
        "Device ID": state.record.device.deviceID, "Hardware": environment.hwid,
        "System Version": environment.platformVersion,
      ],
      "Push Information": [
        "Push Enabled": environment.pushEnabled,
        "Device Token": environment.deviceToken.map { $0 as Any } ?? NSNull(),
      ],
      "Retry Alarms Active": retry,
    ]
  }

  /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, as the SDKs write dates.
  static func stamp(_ instant: Instant) -> String {
    DateText.utcStamp(Date(timeIntervalSince1970: instant.seconds))
  }
}

enum DumpDates {
  /// The SDKs' date forms: with or without milliseconds, or a number since 1970.
  static func parse(_ value: Any?) -> Instant? {
    if let number = value as? NSNumber, String(cString: number.objCType) != "c" {
      // Milliseconds (Android's System.currentTimeMillis) or seconds.
      let raw = number.doubleValue
      let seconds = raw > 1e11 ? raw / 1000 : raw
      // Past year 9999 (or before year 1) no formatter can write it: no usable date.
      return (-62_135_596_800...253_402_300_799).contains(seconds) ? Instant(seconds) : nil
    }
    guard let text = value as? String else { return nil }
    let date = DateText.parse(
      text,
      formats: [
        "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy-MM-dd HH:mm:ss Z",
      ])
    return date.map { Instant($0.timeIntervalSince1970) }
  }
}
