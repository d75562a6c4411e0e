/// A 64-bit hash that is the same in every run (Swift's `Hasher` is seeded per process): FNV-1a
/// over the UTF-8 bytes, mixed by SplitMix64's finaliser so every byte moves every bit. Not a
/// cryptographic digest: for fingerprints and for tables keyed by a hash of a long text.
public enum StableHash {
  public static func of(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
    hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
    return hash ^ (hash >> 31)
  }
}
