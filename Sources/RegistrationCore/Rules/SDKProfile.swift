import Foundation

/// Which SDK RegScope is being: the documented contract (SPEC.md, the seeds) or the shipped
/// 10.0 iOS or Android SDK as observed (SDK-FACTS.md). A profile is data: the machine, the
/// payload builder, the input rules and the request builder read it; none of them branch on
/// the profile's name.
public struct SDKProfile: Hashable, Sendable {
  public enum Name: String, Hashable, Sendable, Codable, CaseIterable {
    case documented, ios, android
  }

  /// How a registration's time is decided after a change, a send or a failure.
  public enum Schedule: Hashable, Sendable {
    /// SPEC R3.2, R4.1: a change goes out 60 s after the first change of its window, never
    /// sooner than 60 s after the last success; failures back off 60 s doubling to a day.
    case window
    /// Android: a change goes out after a short pause unless inside the device throttle (60 s
    /// after the last send or success) or the server's Retry-After; a send attempted too early
    /// is answered on the device as a 429 and sets the retry alarm, 60 s after each failure
    /// (SDK-FACTS, the modelled reading 2).
    case throttleAlarm(editPause: Double)
    /// iOS: one interval, 60 s doubling on failure to a day and back to 60 s on success; one
    /// send per interval, after a short batching pause.
    case interval(batchPause: Double)
  }

  /// How a `Retry-After` header is read.
  public enum RetryAfterForms: Hashable, Sendable {
    /// Delay-seconds or an HTTP date (RFC 9110).
    case secondsOrDate
    /// Whole seconds only; anything else is ignored (Android).
    case wholeSecondsOnly
    /// Whole seconds above zero only: a date and `0` are ignored (iOS).
    case positiveWholeSecondsOnly
  }

  /// How `timeZone` (the UTC offset in seconds) is written.
  public enum TimeZoneForm: Hashable, Sendable {
    /// `String(seconds)`: `"0"`, `"-18000"`.
    case seconds
    /// At least four digits: `"0000"`, `"3600"`, `"-14400"` (iOS).
    case fourDigits
  }

  /// The hash that decides "unchanged" (and is shown as the body's fingerprint).
  public enum BodyHashKind: String, Hashable, Sendable {
    case fnv1a64, sha1, sha256
  }

  /// What a registration listener is handed after a 2xx (R5.1): the body sent (Android's
  /// `onRegistrationReceived`), or the server's answer body (iOS's callback, skipped when the
  /// answer is empty).
  public enum ListenerPayload: Hashable, Sendable {
    case sentBody, answerBody
  }

  /// How header names are spelled.
  public enum HeaderCase: Hashable, Sendable {
    case capitalized, lowercase
  }

  public var name: Name
  /// The platform a shipped SDK runs on; nil for the documented contract, which covers both.
  public var platform: Platform?
  /// The SDK version this profile reproduces, sent in `X-SDK-Version` and the User-Agent.
  public var sdkVersion: String
  public var headerCase: HeaderCase
  /// Whether `X-SDK-Version` is sent.
  public var sendsSDKVersionHeader: Bool
  /// The shipped SDKs' `MarketingCloudSdk/...` User-Agent, or RegScope's own.
  public var userAgentForm: UserAgentForm
  /// `uuid` (fresh per request) and `registrationDateUtc` (the send time) on the wire.
  public var sendsRequestStamps: Bool
  /// Whether the stamps include `uuid`: absent before Android 9.0.0 and iOS 9.0.1
  /// (SDK-FACTS, "Across SDK majors").
  public var sendsUUID = true
  /// How the inbox is asked for (SDK-FACTS, "Across SDK majors").
  public var inboxQuery: InboxQuery = .watermark
  /// `language` and `badge`: in the seeds' example, in neither 10.0 SDK.
  public var sendsLanguageAndBadge: Bool
  public var timeZoneForm: TimeZoneForm
  /// Android sends `quietPushEnabled: false` whatever the device says.
  public var quietPushAlwaysFalse: Bool
  public var bodyHash: BodyHashKind
  public var schedule: Schedule
  public var retryAfterForms: RetryAfterForms
  /// Attribute keys reserved on top of SPEC R2.5's 46 (iOS: `HWID`).
  public var extraReservedAttributeKeys: [String]
  /// iOS tags the device with its model name (`iPhone15,2` gives `iPhone`).
  public var tagsDeviceModel: Bool
  /// 400, 401 and 403 flagged as needing a fix (R4.5). The shipped SDKs special-case nothing.
  public var flagsNeedsFix: Bool
  public var listenerPayload: ListenerPayload
  /// Going to the background deletes the device throttle and sends a pending change at once;
  /// the server's Retry-After still holds (Android).
  public var backgroundSendsPending: Bool
  /// The interval and the throttle live in memory: a relaunch starts them again (iOS). The
  /// Retry-After date is stored and survives.
  public var intervalInMemory: Bool
  /// A due send while the server's Retry-After lies ahead is deferred: the interval doubles
  /// and the SDK looks again after it, rather than waking at the date (iOS).
  public var defersUntilRetryAfter: Bool
  /// `registrationId` on the wire: always (documented), or only when the unified SDK has one,
  /// which a simulated shipped SDK does not.
  public var sendsRegistrationId: Bool
  /// A cleared attribute keeps its key, sent with `""` in every later registration (both
  /// shipped SDKs); the documented contract sends it once.
  public var keepsClearedAttributes: Bool
  /// The longest tag, in characters (both shipped SDKs: 128).
  public var tagMaxLength: Int?
  /// Tags are kept and compared without regard to case (Android's `TreeMap`).
  public var tagsCaseInsensitive: Bool
  /// Setting an attribute replaces an existing one whatever the case of its key (iOS).
  public var attributeKeysCaseInsensitive: Bool
  /// `DEBUG` is on the wire in a debug build (documented, Android); iOS reserves it but never
  /// sends it.
  public var sendsDebugTag: Bool
  /// `uuid` is renewed only when the record changes, so a retry carries the same one (iOS);
  /// otherwise each request gets its own.
  public var uuidPerRecord: Bool

  public enum UserAgentForm: Hashable, Sendable {
    case regscope, ios, android
  }

  /// The documented contract: RegScope's behaviour before profiles, the seeds' word.
  public static let documented = SDKProfile(
    name: .documented, platform: nil, sdkVersion: "8.1.0", headerCase: .capitalized,
    sendsSDKVersionHeader: false, userAgentForm: .regscope, sendsRequestStamps: false,
    sendsLanguageAndBadge: true, timeZoneForm: .seconds, quietPushAlwaysFalse: false,
    bodyHash: .fnv1a64, schedule: .window, retryAfterForms: .secondsOrDate,
    extraReservedAttributeKeys: [], tagsDeviceModel: false, flagsNeedsFix: true,
    listenerPayload: .sentBody, backgroundSendsPending: false, intervalInMemory: false,
    defersUntilRetryAfter: false, sendsRegistrationId: true, keepsClearedAttributes: false,
    tagMaxLength: nil, tagsCaseInsensitive: false, attributeKeysCaseInsensitive: false,
    sendsDebugTag: true, uuidPerRecord: false)

  /// The shipped iOS SDK 10.0.0 (SDK-FACTS.md).
  public static let ios = SDKProfile(
    name: .ios, platform: .iOS, sdkVersion: "10.0.0", headerCase: .capitalized,
    sendsSDKVersionHeader: true,
    userAgentForm: .ios, sendsRequestStamps: true, sendsLanguageAndBadge: false,
    timeZoneForm: .fourDigits, quietPushAlwaysFalse: false, bodyHash: .sha1,
    schedule: .interval(batchPause: 1), retryAfterForms: .positiveWholeSecondsOnly,
    extraReservedAttributeKeys: ["HWID"], tagsDeviceModel: true, flagsNeedsFix: false,
    listenerPayload: .answerBody, backgroundSendsPending: false, intervalInMemory: true,
    defersUntilRetryAfter: true, sendsRegistrationId: false, keepsClearedAttributes: true,
    tagMaxLength: 128, tagsCaseInsensitive: false, attributeKeysCaseInsensitive: true,
    sendsDebugTag: false, uuidPerRecord: true)

  /// The shipped Android SDK 10.0.0 (SDK-FACTS.md).
  public static let android = SDKProfile(
    name: .android, platform: .android, sdkVersion: "10.0.0", headerCase: .lowercase,
    sendsSDKVersionHeader: true,
    userAgentForm: .android, sendsRequestStamps: true, sendsLanguageAndBadge: false,
    timeZoneForm: .seconds, quietPushAlwaysFalse: true, bodyHash: .sha256,
    schedule: .throttleAlarm(editPause: 1), retryAfterForms: .wholeSecondsOnly,
    extraReservedAttributeKeys: [], tagsDeviceModel: false, flagsNeedsFix: false,
    listenerPayload: .sentBody, backgroundSendsPending: true, intervalInMemory: false,
    defersUntilRetryAfter: false, sendsRegistrationId: false, keepsClearedAttributes: true,
    tagMaxLength: 128, tagsCaseInsensitive: true, attributeKeysCaseInsensitive: false,
    sendsDebugTag: true, uuidPerRecord: false)

  public static func named(_ name: Name) -> SDKProfile {
    switch name {
    case .documented: documented
    case .ios: ios
    case .android: android
    }
  }

  public static let choices =
    Name.allCases.map(\.rawValue).joined(separator: "|") + "[@VERSION]"
}

extension SDKProfile {
  /// `documented`, `ios` or `android`, in any case.
  /// `ios`, `android` (the newest read, 10.0) or `documented`; a shipped SDK may name its
  /// version: `android@8.2.1`, `ios@9.0.0`.
  public init?(loose text: String) {
    let parts = InputRules.trimmed(text).lowercased().split(
      separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let first = parts.first, let name = Name(rawValue: String(first)) else { return nil }
    guard parts.count == 2 else {
      self = Self.named(name)
      return
    }
    guard let versioned = Self.named(name).at(version: String(parts[1])) else { return nil }
    self = versioned
  }

  /// Why the version `text` names (`android@8.-1.0`) reads as no profile, for the error that
  /// refuses it, with what a version looks like; nil when `text` names a profile, or names no
  /// SDK at all.
  public static func versionProblem(loose text: String) -> String? {
    guard SDKProfile(loose: text) == nil else { return nil }
    let parts = InputRules.trimmed(text).lowercased().split(
      separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let name = Name(rawValue: String(parts[0])) else { return nil }
    let version = TerminalText.escaped(String(parts[1]))
    guard name != .documented else { return "the documented contract has no versions" }
    guard SDKVersionNumber.triple(String(parts[1])) != nil else {
      return "\"\(version)\" is not a version: a version is \(SDKVersionNumber.grammar)"
    }
    return "\(name.rawValue) \(version) is not a version read (\(versionsRead))"
  }

  /// What follows the key's name (`--sdk`, a scenario's `sdk:`, a config's `regscope_sdk`) in
  /// the error that refuses `text`: why its version is not one, with the grammar, or what may
  /// be written there. One text, so every place that reads a profile explains it alike.
  public static func refusal(loose text: String) -> String {
    let shown = TerminalText.escaped(text)
    if let problem = versionProblem(loose: text) { return "\"\(shown)\": \(problem)" }
    return
      "must be \(choices), a version read (\(versionsRead)) written whole, like android@8.2.1 (the patch matters: 8.2.1 and 8.2.2 differ on the wire); got \"\(shown)\""
  }

  /// When a change goes out under this profile, in a few words, for the inspector.
  public var changeRule: String {
    switch schedule {
    case .window: "the 60 s window's end (R3.2)"
    case .throttleAlarm(let pause): "android: after a \(NumberText.compact(pause)) s pause"
    case .interval(let pause): "ios: \(NumberText.compact(pause)) s pause, 1 send per 60 s"
    }
  }

  /// Why a change opened by `target` goes out when it does, for the event stream.
  public func changeReason(_ target: String) -> String {
    switch schedule {
    case .window: "the 60 s window opened by \(target)"
    case .throttleAlarm(let pause):
      "\(target), after a \(NumberText.compact(pause)) s pause unless within 60 s of the last send"
    case .interval(let pause):
      "\(target), after a \(NumberText.compact(pause)) s pause, one send per 60 s interval"
    }
  }

  /// How failures are retried under this profile, in a few words, for the inspector.
  public var retryRule: String {
    switch schedule {
    case .window: "new edits wait for this retry (R4.3)"
    case .throttleAlarm: "android: the alarm retries 60 s after each failure; edits wait for it"
    case .interval: "ios: the interval doubles on failure (2 min first), 60 s after a success"
    }
  }

  /// `timeZone` as this SDK writes it.
  public func timeZoneText(_ seconds: Int) -> String {
    switch timeZoneForm {
    case .seconds: return String(seconds)
    case .fourDigits:
      let digits = String(seconds.magnitude)
      let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
      return seconds < 0 ? "-" + padded : padded
    }
  }

  /// The model name iOS tags a device with (`UIDevice.model`): `iPhone` or `iPad`, read from
  /// the hardware id's letters (`iPhone15,2`, `iPad13,1`); a simulator's (`arm64`, `x86_64`)
  /// and anything else is an `iPhone`, as `UIDevice.model` says on a simulator.
  public static func deviceModel(fromHardwareID hwid: String) -> String {
    let letters = InputRules.trimmed(String(hwid.prefix { !$0.isNumber && $0 != "," }))
    return ["iPhone", "iPad", "iPod touch"].first { $0.lowercased() == letters.lowercased() }
      ?? "iPhone"
  }

  /// The tags this SDK owns on this device: always present, never removable, refused as the
  /// app's own (R2.7). iOS owns `DEBUG` without sending it (`sentSystemTags`).
  public func systemTags(platform: Platform, debugBuild: Bool, hwid: String) -> [String] {
    var tags = ["ALL", platform.tag]
    if debugBuild { tags.append("DEBUG") }
    if tagsDeviceModel { tags.append(Self.deviceModel(fromHardwareID: hwid)) }
    return tags
  }

  /// The SDK's own tags as they go on the wire.
  public func sentSystemTags(platform: Platform, debugBuild: Bool, hwid: String) -> [String] {
    systemTags(platform: platform, debugBuild: debugBuild && sendsDebugTag, hwid: hwid)
  }

  /// A `Retry-After` header read as this SDK reads it: seconds from `now`, capped at a day,
  /// or nil when the SDK ignores the value.
  public func retryAfterSeconds(_ header: String, now: Date) -> Double? {
    RetryAfter.parse(header, now: now).flatMap(honoured)
  }

  /// The wait a `Retry-After` value imposes on this SDK, capped at a day, or nil when the SDK
  /// ignores that form (SDK-FACTS: Android takes whole seconds; iOS digits above zero).
  public func honoured(_ value: RetryAfter.Value) -> Double? {
    switch (retryAfterForms, value) {
    case (.secondsOrDate, _), (.wholeSecondsOnly, .delaySeconds):
      return min(value.seconds, RetryPolicy.cap)
    case (.positiveWholeSecondsOnly, .delaySeconds(let seconds)) where seconds > 0:
      return min(seconds, RetryPolicy.cap)
    case (.wholeSecondsOnly, .date), (.positiveWholeSecondsOnly, _):
      return nil
    }
  }
}
