import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues
import SystemCalls

/// Reads a shipped SDK's state dump (Android's `getSdkState()`, the unified SDK's wrapper
/// around it, or iOS's `Registration Details`) and says what it means: what is pending, when the
/// next registration is due, and what is wrong with it. Unknown keys are ignored; broken JSON
/// and a shape that is no dump are errors that say where and what.
public struct StateDumpReading: Sendable {
  public enum Shape: String, Sendable {
    case android, unified, ios
  }

  public struct Finding: Sendable, Hashable {
    public var code: WarningCode
    public var rule: String
    public var message: String
  }

  /// The unified SDK's wrapper around an Android dump: flat (`{"sfmcSDKVersion": "1.0.x",
  /// "PUSH": ...}`, 8.x and 9.x) or `modules` (3.0.x, 10.x); SDK-FACTS, "Across SDK majors".
  public enum Wrapper: Sendable, Hashable {
    case flat(sfmcSDKVersion: String)
    case modules(sfmcSDKVersion: String)
  }

  public var shape: Shape
  public var wrapper: Wrapper?
  /// The SDK version the current registration names (`sdk_Version`), if it names one.
  public var sdkVersion: String? { current.sdkVersion }
  /// The profile the dump is read with: its platform's, at the version it names.
  public var profile: SDKProfile {
    let base: SDKProfile = shape == .ios ? .ios : .android
    if let versioned = sdkVersion.flatMap(base.at(version:)) { return versioned }
    // A flat dump is 8.x's or 9.x's form: without a version, read as the newer.
    if case .flat? = wrapper, let nine = base.at(version: Self.flatWithoutVersion) { return nine }
    return base
  }
  /// The version a flat dump whose registration names none is read as.
  static let flatWithoutVersion = "9.0.0"
  /// When the wrapper and the version disagree (a flat wrapper from a 10.x SDK, `modules` from
  /// an 8.x or 9.x one): the dump may have been edited or put together by hand.
  public var versionMismatch: String? {
    if case .flat? = wrapper, sdkVersion == nil {
      return
        "the registration names no sdk_Version; a flat dump is the 8.x/9.x form, read as \(Self.flatWithoutVersion)"
    }
    guard let wrapper, let major = sdkVersion.flatMap(SDKVersionNumber.major)
    else { return nil }
    switch wrapper {
    case .flat where major >= 10:
      return
        "a flat dump is the 8.x/9.x form (SFMCSdk 1.0.x), but the registration names SDK \(sdkVersion ?? "")"
    case .modules where major < 10:
      return
        "a modules dump is the 10.x form (SFMCSdk 3.0.x), but the registration names SDK \(sdkVersion ?? "")"
    default: return nil
    }
  }
  public var current: RegistrationPayload
  public var lastSent: RegistrationPayload?
  public var lastSentAt: Instant?
  public var alarmAt: Instant?
  /// What the current registration changes against the last sent one, one line each.
  public var pending: [String]
  /// When the next registration is due, in words.
  public var nextDue: String
  public var findings: [Finding]
}

public struct StateDumpError: Error, CustomStringConvertible, Sendable {
  public var source: String
  public var reason: String

  public init(source: String, reason: String) {
    self.source = source
    self.reason = reason
  }

  public var description: String { "\(source): \(reason)" }
}

public enum StateDumpImport {
  /// The largest dump read: a real one is a few kilobytes, and reading a huge file whole (and
  /// parsing it) would take seconds and hundreds of megabytes.
  public static let largestDump = 4 << 20

  /// The dump's bytes, refused with a clear message when the file cannot be read, is not a
  /// regular file, or is larger than `largestDump`.
  public static func load(path: String) throws(StateDumpError) -> Data {
    let file: SystemCalls.FileInfo
    switch SystemCalls.fileInfo(path) {
    case .failure(let failure):
      throw StateDumpError(source: path, reason: "cannot be read (\(failure))")
    case .success(let found): file = found
    }
    guard file.kind == .regular else {
      throw StateDumpError(source: path, reason: "is not a regular file")
    }
    guard file.size <= largestDump else {
      throw StateDumpError(
        source: path,
        reason:
          "is \(file.size) bytes; an SDK state dump is a few kilobytes, and at most \(largestDump) are read"
      )
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StateDumpError(source: path, reason: "cannot be read")
    }
    return data
  }

  public static func read(_ data: Data, source: String) throws(StateDumpError)
    -> StateDumpReading
  {
    func fail(_ reason: String) -> StateDumpError { StateDumpError(source: source, reason: reason) }
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw fail("is not valid JSON: \(JSONErrorLocation.describe(error, in: data))")
    }
    guard var object = root as? [String: Any] else {
      throw fail("is not an SDK state dump: expected a JSON object")
    }
    var shape = StateDumpReading.Shape.android
    var wrapper: StateDumpReading.Wrapper?
    // Where `object` is in the dump: a registration held as an object is read from its bytes.
    var path: [String] = []
    let unifiedVersion = (object["sfmcSDKVersion"] as? String).map(TerminalText.escaped) ?? "?"
    if let modules = object["modules"] as? [String: Any] {
      let module = modules["ENGAGEMENT"] != nil ? "ENGAGEMENT" : "PUSH"
      guard let inner = modules[module] as? [String: Any] else {
        throw fail("has modules but no ENGAGEMENT (or PUSH) module")
      }
      (object, path) = (inner, ["modules", module])
      shape = .unified
      wrapper = .modules(sfmcSDKVersion: unifiedVersion)
    } else if object["sfmcSDKVersion"] != nil,
      let inner = (object["PUSH"] ?? object["ENGAGEMENT"]) as? [String: Any]
    {
      // The unified SDK 1.0.x (8.x, 9.x): flat, `{"sfmcSDKVersion": "1.0.x", "PUSH": ...}`.
      (object, path) = (inner, [object["PUSH"] != nil ? "PUSH" : "ENGAGEMENT"])
      shape = .unified
      wrapper = .flat(sfmcSDKVersion: unifiedVersion)
    }
    let current: (value: Any?, path: [String])
    let last: (value: Any?, path: [String])
    var lastAt: Instant?
    var alarm: Instant?
    if let manager = object["RegistrationManager"] as? [String: Any] {
      path.append("RegistrationManager")
      current = (manager["current_registration"], path + ["current_registration"])
      last = (manager["last_registration_sent"], path + ["last_registration_sent"])
      lastAt = DumpDates.parse(manager["last_sent_timestamp"])
      let alarms = (object["AlarmScheduler"] as? [String: Any])?["pending_alarms"]
      alarm = DumpDates.parse((alarms as? [String: Any])?["REGISTRATION"])
    } else if let details = object["Registration Details"] as? [String: Any] {
      shape = .ios
      path.append("Registration Details")
      current = (details["Current Registration"], path + ["Current Registration"])
      last = (
        details["Last Successfully Sent Registration"],
        path + ["Last Successfully Sent Registration"]
      )
      lastAt = DumpDates.parse(details["Date of Last Successful Registration"])
      let alarms = object["Retry Alarms Active"] as? [String: Any]
      alarm = alarms?.values.compactMap { DumpDates.parse($0) }.min()
    } else {
      throw fail(
        "is not an SDK state dump: expected RegistrationManager (Android), modules.ENGAGEMENT (the unified SDK) or \"Registration Details\" (iOS)"
      )
    }
    guard let currentPayload = try payload(current, in: data, "the current registration", fail)
    else { throw fail("has no current registration") }
    var lastPayload = try payload(last, in: data, "the last sent registration", fail)
    if shape != .ios, lastPayload == nil {
      // Android lists `last_registration_sent` only while a send is needed: absent, nothing
      // is pending (it does not mean nothing was ever sent).
      lastPayload = currentPayload
    }
    let pending = differences(from: lastPayload, to: currentPayload)
    var reading = StateDumpReading(
      shape: shape, wrapper: wrapper, current: currentPayload, lastSent: lastPayload,
      lastSentAt: lastAt, alarmAt: alarm, pending: pending, nextDue: "", findings: [])
    let profile = reading.profile
    reading.nextDue = nextDue(
      pending: !pending.isEmpty, lastAt: lastAt, alarm: alarm, profile: profile)
    reading.findings = findings(currentPayload, lastSent: lastPayload, profile: profile)
    return reading
  }

  /// A body as an object, or as a string holding JSON (Android stores them as strings). An
  /// object is read from the dump's own bytes (`JSONMember`), never through the dictionary
  /// `JSONSerialization` made of it, which merged keys by Unicode equivalence (#51).
  private static func payload(
    _ found: (value: Any?, path: [String]), in dump: Data, _ what: String,
    _ fail: (String) -> StateDumpError
  ) throws(StateDumpError) -> RegistrationPayload? {
    guard let value = found.value, !(value is NSNull) else { return nil }
    let data: Data
    if let text = value as? String {
      data = Data(text.utf8)
    } else if value is [String: Any] || value is [Any],
      let bytes = JSONMember.bytes(at: found.path, in: dump)
    {
      data = bytes
    } else {
      throw fail("\(what) is neither a JSON object nor a string of JSON")
    }
    switch WireDecoding.payload(from: data) {
    case .success(let payload): return payload
    case .failure(let problem): throw fail("\(what): \(problem)")
    }
  }

  static func differences(from last: RegistrationPayload?, to current: RegistrationPayload)
    -> [String]
  {
    changes(from: last, to: current).map(\.summary)
  }

  /// Each thing the current registration changes against the last sent one, with the queue
  /// target it would be in RegScope's own state.
  static func changes(from last: RegistrationPayload?, to current: RegistrationPayload)
    -> [(target: ChangeTarget, summary: String)]
  {
    guard let last else {
      return [(.initial, "nothing was ever sent: the whole record is pending")]
    }
    var lines: [(target: ChangeTarget, summary: String)] = []
    if last.subscriberKey != current.subscriberKey {
      lines.append(
        (.contactKey, "contact key: \(show(last.subscriberKey)) -> \(show(current.subscriberKey))")
      )
    }
    // Keyed by bytes, as the SDK keeps them: "caf\u00e9" and "cafe\u0301" are two (#51).
    let before = Dictionary(
      (last.attributes ?? []).map { (ExactKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
    let after = Dictionary(
      (current.attributes ?? []).map { (ExactKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
    let keys = Set(before.keys).union(after.keys).sorted {
      $0.text != $1.text ? $0.text < $1.text : $0.text.utf8.lexicographicallyPrecedes($1.text.utf8)
    }
    for key in keys where before[key].map(ExactKey.init) != after[key].map(ExactKey.init) {
      lines.append(
        (
          ChangeTarget(.attribute, key.text),
          "attribute \(key.text): \(show(before[key])) -> \(show(after[key]))"
        ))
    }
    let oldTags = Set(last.tags ?? [])
    let newTags = Set(current.tags ?? [])
    for tag in newTags.subtracting(oldTags).sorted() {
      lines.append((ChangeTarget(.tag, tag), "tag + \(tag)"))
    }
    for tag in oldTags.subtracting(newTags).sorted() {
      lines.append((ChangeTarget(.tag, tag), "tag - \(tag)"))
    }
    let fields: [(String, (RegistrationPayload) -> String?)] = [
      ("device_Token", \.deviceToken), ("platform_Version", \.platformVersion),
      ("app_Version", \.appVersion), ("sdk_Version", \.sdkVersion), ("locale", \.locale),
      ("timeZone", \.timeZone), ("push_Enabled", { $0.pushEnabled.map(String.init) }),
      ("location_Enabled", { $0.locationEnabled.map(String.init) }),
    ]
    for (name, read) in fields where read(last) != read(current) {
      lines.append(
        (ChangeTarget(.device, name), "\(name): \(show(read(last))) -> \(show(read(current)))"))
    }
    return lines
  }

  private static func show(_ value: String?) -> String {
    value.map { "\"\(TerminalText.escaped($0))\"" } ?? "(none)"
  }

  static func nextDue(pending: Bool, lastAt: Instant?, alarm: Instant?, profile: SDKProfile)
    -> String
  {
    if let alarm {
      return "the retry alarm fires at \(SDKStateDump.stamp(alarm))"
    }
    guard pending else { return "nothing is due: the current registration was sent" }
    guard let lastAt else { return "at once: nothing was ever sent" }
    return
      "at once if it is past \(SDKStateDump.stamp(lastAt + RetryPolicy.throttle)) (60 s after the last send); before that, \(profile.name == .android ? "answered on the device with 429 and sent by the alarm" : "at that time")"
  }

  static func findings(
    _ current: RegistrationPayload, lastSent: RegistrationPayload?, profile: SDKProfile
  ) -> [StateDumpReading.Finding] {
    var found: [StateDumpReading.Finding] = []
    for name in RequiredFields.missing(in: current) {
      found.append(
        .init(
          code: .missingRequired, rule: "R6.3",
          message: "\(name) is missing: the registration cannot be sent"))
    }
    for attribute in current.attributes ?? []
    where InputRules.isReservedAttributeKey(
      attribute.key, alsoReserved: profile.extraReservedAttributeKeys)
    {
      found.append(
        .init(
          code: .reservedAttribute, rule: "R2.5",
          message:
            "attribute \(TerminalText.escaped(attribute.key)) is a reserved word: the SDK keeps it for its own use"
        ))
    }
    if let key = current.subscriberKey, InputRules.isGenericContactKey(key) {
      found.append(
        .init(
          code: .genericContactKey, rule: "R2.4",
          message:
            "contact key \"\(TerminalText.escaped(key))\" is generic: every device that uses it becomes one contact"
        ))
    }
    if let old = lastSent?.subscriberKey, let new = current.subscriberKey, old != new {
      found.append(
        .init(
          code: .orphanRisk, rule: "R8.3",
          message:
            "the contact key changes from \"\(TerminalText.escaped(old))\" to \"\(TerminalText.escaped(new))\": the old contact is orphaned unless another device has it"
        ))
    } else if let lastSent, lastSent.subscriberKey == nil, let new = current.subscriberKey {
      found.append(
        .init(
          code: .orphanRisk, rule: "R8.2",
          message:
            "the device was registered without a contact key; sending \"\(TerminalText.escaped(new))\" orphans the contact the server made up"
        ))
    }
    return found
  }
}
