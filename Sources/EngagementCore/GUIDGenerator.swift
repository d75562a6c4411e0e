import RegistrationCore

/// Makes the random GUID contact keys the server invents (S3). Seeded, so a scenario run twice
/// makes the same keys; SplitMix64 is small, fast and good enough for identifiers.
public struct GUIDGenerator: Sendable {
  private var random: SplitMix64

  public init(seed: UInt64) { random = SplitMix64(seed: seed) }

  public mutating func next() -> String {
    let high = random.next()
    let low = random.next()
    var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * (7 - $0))) }
    bytes += (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * (7 - $0))) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    let hex = bytes.map { byte in
      let text = String(byte, radix: 16, uppercase: true)
      return text.count == 1 ? "0" + text : text
    }
    return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
  }
}
