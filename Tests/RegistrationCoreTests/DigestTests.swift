import Testing

@testable import RegistrationCore

/// The digests a debug bundle's manifest and redaction use (#54), held to their standards'
/// own test vectors.
@Suite("SHA-256 and HMAC-SHA256")
struct DigestTests {
  @Test("SHA-256 of \"abc\" (FIPS 180-4's example)")
  func sha256() {
    #expect(
      Digest.hex(Digest.sha256(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test("HMAC-SHA256, RFC 4231 test cases 2 and 6 (a key longer than the block)")
  func hmac() {
    #expect(
      Digest.hex(
        Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    let key = [UInt8](repeating: 0xAA, count: 131)
    let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
    #expect(
      Digest.hex(Digest.hmacSHA256(key: key, message))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }
}
