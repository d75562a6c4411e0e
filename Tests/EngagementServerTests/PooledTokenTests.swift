import TestSupport
import Testing

@testable import EngagementServer

/// The local server's subscriber tokens, from the pool of the system's random bytes.
@Suite("subscriber tokens from the random pool")
struct PooledTokenTests {
  @Test("128 bits in 32 lower-case hex digits, never the same, across many refills of the pool")
  func tokens() {
    // 1,000 tokens of 16 bytes: the 4 KB pool is read again four times.
    let tokens = (0..<1_000).map { _ in LocalEngagementServer.pooledToken() }
    #expect(subscriberTokenProblems(tokens) == [])
  }
}
