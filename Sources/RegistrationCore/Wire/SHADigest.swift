/// SHA-1 and SHA-256 (FIPS 180-4), for a body's fingerprint only (`BodyHash`, as the iOS and
/// Android SDKs hash it): nothing secret is hashed, and the two digests written here keep a
/// cryptography library out of the core. swift-crypto, for these two functions alone, compiled
/// a second copy of BoringSSL into every build (docs/testing.md, Figures).
enum SHADigest {
  static func sha1(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    forEachBlock(of: message, words: 80) { words in
      for t in 16..<80 {
        words[t] = rotateLeft(words[t - 3] ^ words[t - 8] ^ words[t - 14] ^ words[t - 16], 1)
      }
      var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
      for t in 0..<80 {
        let mixed: UInt32
        let constant: UInt32
        switch t {
        case 0..<20: (mixed, constant) = ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (mixed, constant) = (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: (mixed, constant) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (mixed, constant) = (b ^ c ^ d, 0xCA62_C1D6)
        }
        let next = rotateLeft(a, 5) &+ mixed &+ e &+ constant &+ words[t]
        (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, next)
      }
      state[0] &+= a
      state[1] &+= b
      state[2] &+= c
      state[3] &+= d
      state[4] &+= e
    }
    return bigEndianBytes(state)
  }

  static func sha256(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [
      0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB,
      0x5BE0_CD19,
    ]
    sha256Constants.withUnsafeBufferPointer { constants in
      forEachBlock(of: message, words: 64) { words in
        for t in 16..<64 {
          let s0 =
            rotateRight(words[t - 15], 7) ^ rotateRight(words[t - 15], 18) ^ (words[t - 15] >> 3)
          let s1 =
            rotateRight(words[t - 2], 17) ^ rotateRight(words[t - 2], 19) ^ (words[t - 2] >> 10)
          words[t] = words[t - 16] &+ s0 &+ words[t - 7] &+ s1
        }
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        for t in 0..<64 {
          let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
          let choose = (e & f) ^ (~e & g)
          let first = h &+ sum1 &+ choose &+ constants[t] &+ words[t]
          let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ sum0 &+ majority)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
      }
    }
    return bigEndianBytes(state)
  }

  /// The message padded (a 1 bit, zeros, its length in bits), each 64-byte block read into the
  /// first 16 of `count` words as big-endian words, then handed to `compress`.
  private static func forEachBlock(
    of message: [UInt8], words count: Int,
    _ compress: (UnsafeMutableBufferPointer<UInt32>) -> Void
  ) {
    var padded = message
    padded.append(0x80)
    padded.append(contentsOf: repeatElement(0, count: (119 - message.count % 64) % 64))
    let bits = UInt64(message.count) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { words in
      padded.withUnsafeBufferPointer { bytes in
        for block in stride(from: 0, to: bytes.count, by: 64) {
          for index in 0..<16 {
            let at = block + index * 4
            words[index] =
              UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
              | UInt32(bytes[at + 3])
          }
          compress(words)
        }
      }
    }
  }

  private static func bigEndianBytes(_ state: [UInt32]) -> [UInt8] {
    state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
  }

  private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &<< count) | (value &>> (32 &- count))
  }

  private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &>> count) | (value &<< (32 &- count))
  }

  private static let sha256Constants: [UInt32] = [
    0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4,
    0xAB1C_5ED5, 0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE,
    0x9BDC_06A7, 0xC19B_F174, 0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F,
    0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA, 0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7,
    0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967, 0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC,
    0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85, 0xA2BF_E8A1, 0xA81A_664B,
    0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070, 0x19A4_C116,
    0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
    0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7,
    0xC671_78F2,
  ]
}
