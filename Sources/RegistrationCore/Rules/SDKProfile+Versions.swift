/// What changed between the shipped SDKs' majors (SDK-FACTS, "Across SDK majors"): the
/// constants (throttle, ladder, Retry-After cap, reserved words, limits) are the same in every
/// major read; the wire differs in small, visible ways.
extension SDKProfile {
  /// How a shipped SDK asks for its inbox: 8.x `?deviceid=..&messagetype=8&contenttype=2`,
  /// 9.x and 10.0 `?deviceid=..&wm=..`.
  public enum InboxQuery: String, Hashable, Sendable {
    case messageTypeContentType, watermark
  }

  /// As `--sdk` takes it: `documented`, `ios`, `android` for the newest read, `android@9.0.3`
  /// for another version.
  public var spelled: String {
    guard name != .documented, sdkVersion != Self.named(name).sdkVersion else {
      return name.rawValue
    }
    return "\(name.rawValue)@\(sdkVersion)"
  }

  /// The majors read from the shipped binaries (SDK-FACTS, "Across SDK majors").
  public static let versionsRead = "8.0.0 to 10.x; 11.x is taken as 10.x"

  /// This shipped SDK as its version `text` sends: what changed between the majors read.
  /// Nil for the documented contract (it has no versions), text that is not a version of
  /// three parts (`SDKVersionNumber.grammar`), or one before 8.0.0 (not read).
  public func at(version text: String) -> SDKProfile? {
    guard name != .documented, let version = SDKVersionNumber.triple(text), version.major >= 8,
      version.major < 100, version.minor < 1_000, version.patch < 1_000
    else { return nil }
    let major = version.major
    var profile = self
    profile.sdkVersion = text
    switch platform {
    case .android?:
      // Mixed-case header names up to 8.2.1; uuid from 9.0.0.
      profile.headerCase = version < (8, 2, 2) ? .capitalized : .lowercase
      profile.sendsUUID = version >= (9, 0, 0)
      profile.inboxQuery = major < 9 ? .messageTypeContentType : .watermark
    case .iOS?:
      // 9.0.0 sends no uuid; 9.0.1 on does.
      profile.sendsUUID = version >= (9, 0, 1)
      profile.inboxQuery = major < 9 ? .messageTypeContentType : .watermark
    case nil: break
    }
    return profile
  }

}

/// One observed behaviour of a shipped SDK's version and the SDK-FACTS section it comes from:
/// a profile is data, and each datum that differs between majors says where it was read.
public struct ProfileFact: Hashable, Sendable {
  public var what: String
  public var value: String
  public var section: String

  public init(_ what: String, _ value: String, _ section: String) {
    self.what = what
    self.value = value
    self.section = section
  }
}

extension SDKProfile {
  /// The sections of SDK-FACTS.md a profile cites, as its headings spell them.
  public static let factSections = [
    "The request", "The body", "Throttle and retry", "Input rules",
    "Body details (second reading)", "The SDK state dump", "Across SDK majors (third reading)",
  ]

  /// The facts this profile reproduces that differ between majors, or that were checked to be
  /// the same in each, with their sections; empty for the documented contract (the seeds'
  /// word, not an SDK's).
  public var facts: [ProfileFact] {
    guard let platform else { return [] }
    let majors = "Across SDK majors (third reading)"
    let android = platform == .android
    let flat = (SDKVersionNumber.major(sdkVersion) ?? 10) < 10
    return [
      ProfileFact("User-Agent", "MarketingCloudSdk/\(sdkVersion)", "The request"),
      ProfileFact(
        "header names", headerCase == .capitalized ? "mixed case" : "lower case",
        android ? majors : "The request"),
      ProfileFact("uuid in the body", sendsUUID ? "sent" : "absent", majors),
      ProfileFact(
        "inbox query",
        inboxQuery == .messageTypeContentType ? "messagetype=8&contenttype=2" : "wm", majors),
      ProfileFact(
        "state dump",
        android ? (flat ? "flat, SFMCSdk 1.0.x" : "modules, SFMCSdk 3.0.1") : "sections", majors),
      ProfileFact("throttle", "\(NumberText.compact(RetryPolicy.throttle)) s", majors),
      ProfileFact("body hash", bodyHash == .sha256 ? "SHA-256" : "SHA-1", majors),
      ProfileFact(
        "reserved attribute words",
        "\(InputRules.reservedAttributeKeys.count + extraReservedAttributeKeys.count)",
        majors),
    ]
  }
}
