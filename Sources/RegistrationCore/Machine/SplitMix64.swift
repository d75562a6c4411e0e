/// SplitMix64: a small, fast, seedable generator, good enough for identifiers, tokens, fleet
/// populations and test schedules. The same seed gives the same numbers everywhere they are
/// used (the server's made-up keys, a fleet's households, the crash soak).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// Uniform in 0..<bound (0 when bound < 1).
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
