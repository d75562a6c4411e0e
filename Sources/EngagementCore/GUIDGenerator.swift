import RegistrationCore

/// Makes the random GUID contact keys the server invents (S3). Seeded, so a scenario run twice
/// makes the same keys; SplitMix64 is small, fast and good enough for identifiers.
public struct GUIDGenerator: Sendable {
  private var random: SplitMix64

  public init(seed: UInt64) { random = SplitMix64(seed: seed) }

  public mutating func next() -> String {
    let high = random.next()
    let low = random.next()
    var bytes = (0..<16).map { index in
      UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * (7 - index % 8)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    // Written digit by digit: this runs for every contact the server makes.
    let digits = Array("0123456789ABCDEF".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
