import RegistrationCore

extension RegistrationJudge {
  /// R1.4 across an SDK upgrade: `sdk_Version` changed since the record the server took, and
  /// tags or attributes it had are gone. A warning: an app may drop them on purpose in the
  /// same release, but the known migration gap drops them without anyone asking.
  static func upgrade(_ payload: RegistrationPayload, memory: JudgeMemory) -> Finding? {
    guard let before = memory.lastAcknowledged, let from = before.sdkVersion,
      let to = payload.sdkVersion, from != to
    else { return nil }
    let lostTags = (before.tags ?? []).filter { !(payload.tags ?? []).contains($0) }
    let keys = Set((payload.attributes ?? []).map(\.key))
    let lostAttributes = (before.attributes ?? []).map(\.key).filter { !keys.contains($0) }
    guard !lostTags.isEmpty || !lostAttributes.isEmpty else { return nil }
    let lost = [
      lostTags.isEmpty ? nil : "tags " + lostTags.map(TerminalText.escaped).joined(separator: ", "),
      lostAttributes.isEmpty
        ? nil : "attributes " + lostAttributes.map(TerminalText.escaped).joined(separator: ", "),
    ].compactMap { $0 }.joined(separator: " and ")
    let change = SDKVersionNumber.isLater(to, than: from) ? "went from" : "went back from"
    // The one known cause is iOS 8.0.0-8.0.6 migrating a 7.x record; it cannot explain an
    // upgrade that did not land in that gap from 7.x, and blaming it would send a developer
    // after the wrong fix.
    let iOS = (payload.platform ?? before.platform).flatMap(Platform.init(loose:)) == .iOS
    let knownCause = iOS && Self.isMigrationGap(from: from, to: to)
    let cause =
      knownCause
      ? "known cause: iOS 8.0.0-8.0.6 sent empty tags and attributes after a 7.x migration, fixed in 8.0.7"
      : "no SDK cause is known for this upgrade\(iOS ? " (the iOS 8.0.0-8.0.6 gap applies only to an upgrade from 7.x into it)" : " on Android"): look for an app that clears its data or the SDK's store on update"
    return Finding(
      code: .sdkUpgradeLostData, rule: "R1.4",
      message:
        "the SDK \(change) \(TerminalText.escaped(from)) to \(TerminalText.escaped(to)) and the record lost \(lost): an accepted edit is never lost (\(cause))",
      severity: .warning,
      fix: knownCause
        ? nil
        : "keep the SDK's stored record across the update (do not clear the app's data), then set the lost tags and attributes again from the app"
    )
  }

  /// The app or SDK version `after` changed from `before`, said as the timeline says it
  /// ("app_Version 1.0 -> 1.1, sdk_Version 10.0.0 -> 10.0.1"), or nil when neither did: the
  /// app was updated, and the update relaunched it.
  static func update(from before: RegistrationPayload?, to after: RegistrationPayload)
    -> String?
  {
    guard let before else { return nil }
    let changed = [
      ("app_Version", before.appVersion, after.appVersion),
      ("sdk_Version", before.sdkVersion, after.sdkVersion),
    ].compactMap { name, old, new -> String? in
      guard let old, let new, old != new else { return nil }
      return "\(name) \(TerminalText.escaped(old)) -> \(TerminalText.escaped(new))"
    }
    return changed.isEmpty ? nil : changed.joined(separator: ", ")
  }

  /// Whether `from` -> `to` is the iOS migration gap: a 7.x (or older) record read by
  /// 8.0.0-8.0.6.
  static func isMigrationGap(from: String, to: String) -> Bool {
    guard let old = SDKVersionNumber.major(from), old < 8, SDKVersionNumber.major(to) == 8
    else { return false }
    return !SDKVersionNumber.isLater(to, than: "8.0.6")
  }
}
