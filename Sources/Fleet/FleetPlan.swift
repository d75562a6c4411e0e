import RegistrationCore

/// A population to run through the rules: how many devices, how they set the contact key
/// (R8.4), who logs in and when, who shares a phone, who reinstalls, and an outage.
public struct FleetPlan: Sendable, Hashable {
  /// R8.4's contact-key strategies (seed 004).
  public enum Strategy: String, Sendable, Hashable, CaseIterable {
    /// No contact key, no delay: every device gets a contact the server makes up.
    case anonymousOnly = "anonymous-only"
    /// Delay until the key is set: only users who log in are ever registered.
    case knownOnly = "known-only"
    /// Register at once, set the key after login: the made-up contact is orphaned (R8.2).
    case both
  }

  /// What the server answers during the outage.
  public enum OutageKind: Sendable, Hashable {
    case status(Int)
    case retryAfter(status: Int, seconds: Double)
    case down
  }

  public struct Outage: Sendable, Hashable {
    public var start: Double
    public var duration: Double
    public var kind: OutageKind

    public init(start: Double, duration: Double, kind: OutageKind) {
      self.start = start
      self.duration = duration
      self.kind = kind
    }

    public var end: Double { start + duration }
  }

  public var devices: Int
  public var strategy: Strategy
  /// Seconds the fleet runs.
  public var duration: Double
  /// Installs are spread evenly over the first this many seconds (the whole run by default).
  public var installWithin: Double
  /// Share of users who log in, and within how long of installing.
  public var loginShare: Double
  public var loginWithin: Double
  /// Share of devices whose user changes after logging in (R8.3).
  public var sharedShare: Double
  /// Share of devices reinstalled (a new deviceID) at a random time.
  public var reinstallShare: Double
  public var outage: Outage?
  /// The outage as it was asked for, when it reached past the end of the run and was cut to
  /// it (nil when it fit).
  public var outageAsked: Outage?
  /// Each device's push token is refreshed about this often (0: never): a device-field change
  /// that is registered like any other (R3.2).
  public var tokenRefreshEvery: Double
  /// What-if, not what the SDKs do: each retry spread by ± this share of its interval.
  public var jitter: Double
  public var seed: UInt64
  public var profile: SDKProfile

  public init(
    devices: Int, strategy: Strategy, duration: Double = 30 * 86_400, installWithin: Double? = nil,
    loginShare: Double = 0.6,
    loginWithin: Double = 7 * 86_400, sharedShare: Double = 0.05, reinstallShare: Double = 0.05,
    outage: Outage? = nil, tokenRefreshEvery: Double = 0, jitter: Double = 0, seed: UInt64 = 1,
    profile: SDKProfile = .documented
  ) {
    self.tokenRefreshEvery = tokenRefreshEvery
    self.devices = devices
    self.strategy = strategy
    self.duration = duration
    self.installWithin = min(installWithin ?? duration, duration)
    self.loginShare = loginShare
    self.loginWithin = loginWithin
    self.sharedShare = sharedShare
    self.reinstallShare = reinstallShare
    // An outage that reaches or passes the end of the run is cut to it, and the report says so.
    if let outage, outage.end > duration {
      let start = min(max(0, outage.start), duration)
      self.outage = Outage(start: start, duration: duration - start, kind: outage.kind)
      outageAsked = outage
    } else {
      self.outage = outage
    }
    self.jitter = jitter
    self.seed = seed
    self.profile = profile
  }
}

/// Each household's own stream of the fleet's seed, so the result does not depend on how the
/// households are split across the cores.
struct FleetRandom {
  private var random: SplitMix64

  init(seed: UInt64, stream: UInt64) {
    random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ stream)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { random.unit() }

  mutating func chance(_ share: Double) -> Bool { unit() < share }
}
