import Session
import SessionValues

/// A small seeded mutation engine: byte flips, inserts, deletes, splices with another seed,
/// and tokens that have broken parsers before (huge numbers, control characters, quotes).
/// Deterministic: the same seed gives the same inputs, so a failure can be replayed.
struct Mutator {
  private var state: UInt64

  init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  /// xorshift64*: fast, and enough for choosing mutations.
  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }

  mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

  static let tokens: [[UInt8]] = [
    "99999999999999999999", "1e20", "1e400", "-1", "NaN", "0", "-0", "1.5", "18446744073709551616",
    "\u{1B}]0;x\u{07}", "\u{9B}31m", "\u{202E}", "\0", "\"", "\\", "{", "}", "[", "]", ":",
    "\n", "\t", "- ", "&a", "*a", "!!binary", "%", "s", "m", "d", "times", "retry-after", "for",
    String(repeating: "a", count: 300),
  ].map { Array($0.utf8) }

  mutating func mutate(_ input: [UInt8], splicing other: [UInt8]) -> [UInt8] {
    var bytes = input
    for _ in 0...below(4) {
      switch below(7) {
      case 0 where !bytes.isEmpty:
        bytes[below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
      case 1:
        bytes.insert(UInt8(truncatingIfNeeded: next()), at: below(bytes.count + 1))
      case 2 where !bytes.isEmpty:
        let start = below(bytes.count)
        bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(16)))
      case 3 where !other.isEmpty:
        let start = below(other.count)
        let piece = other[start..<min(other.count, start + 1 + below(64))]
        bytes.insert(contentsOf: piece, at: below(bytes.count + 1))
      case 4, 5:
        bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: below(bytes.count + 1))
      default:
        if !bytes.isEmpty {
          let start = below(bytes.count)
          let end = min(bytes.count, start + 1 + below(8))
          bytes.replaceSubrange(start..<end, with: Self.tokens[below(Self.tokens.count)])
        }
      }
    }
    return bytes.count > 64 * 1024 ? Array(bytes.prefix(64 * 1024)) : bytes
  }
}
