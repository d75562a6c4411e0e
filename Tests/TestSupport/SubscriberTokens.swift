import RegistrationCore
import Synchronization

/// What is wrong with a batch of subscriber tokens for a server to hand out, as sentences; empty
/// when each is "rs-" and 32 lower-case hex digits, none repeats, and every digit place takes
/// many values (no half of the 128 bits left at zero).
public func subscriberTokenProblems(_ tokens: [String]) -> [String] {
  var problems: [String] = []
  let hex = Set("0123456789abcdef".utf8)
  for token in tokens
  where
    !(token.hasPrefix("rs-") && token.utf8.count == 35
    && token.utf8.dropFirst(3).allSatisfy(hex.contains))
  {
    problems.append("not rs- and 32 hex digits: \(token)")
  }
  if Set(tokens).count != tokens.count { problems.append("a token repeats") }
  for place in 3..<35 {
    let seen = Set(tokens.compactMap { Array($0.utf8).dropFirst(place).first })
    if seen.count <= 8 { problems.append("digit place \(place) takes only \(seen.count) values") }
  }
  return problems
}

/// Subscriber tokens of the live server's form ("rs-" and 32 hex digits) from a seeded
/// generator, for `DeviceWatch(makeToken:)`: the same seed hands out the same tokens in the
/// same order, so a test can name them.
public func seededTokens(_ seed: UInt64) -> @Sendable () -> String {
  let random = Mutex(SplitMix64(seed: seed))
  return {
    var halves = random.withLock { ($0.next(), $0.next()) }
    return withUnsafeBytes(of: &halves) { TokenText.hex(prefix: "rs-", $0) }
  }
}
