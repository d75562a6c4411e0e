import RegistrationCore
import Testing

/// RegScope's own SHA-1 and SHA-256 give the standard digests: FIPS 180's examples, and
/// messages of every length around the padding's edges (55, 56 and 64 bytes fill a block
/// differently), their digests written by coreutils' sha1sum and sha256sum.
@Suite("a body's SHA-1 and SHA-256")
struct BodyHashTests {
  @Test("FIPS 180's examples: empty, abc, two blocks, a million a's")
  func standardExamples() {
    let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(BodyHash.digest([], .sha1) == "sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(
      BodyHash.digest([], .sha256)
        == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      BodyHash.digest(twoBlocks, .sha1) == "sha1:84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(
      BodyHash.digest(twoBlocks, .sha256)
        == "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(BodyHash.digest(million, .sha1) == "sha1:34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    #expect(
      BodyHash.digest(million, .sha256)
        == "sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test(
    "lengths at the padding's edges",
    arguments: [
      (
        55, "aecd1643c9903b9bae8cb94f53c50f8a4e18605b",
        "576a1bf8d4478657e6dc4af9398544765c2a92cde28478b019235cfed315fc09"
      ),
      (
        56, "f5d65c621c02cc8e785159feff8088e3072da1bc",
        "9b20501dfd1d99161c257950f3444f3e49230c351c5c8e0943ef369f85f5205d"
      ),
      (
        63, "4952f0fe097e4d6410ae9eab4855aa836caf3bff",
        "30b345906b493f06f69444b6521113511c242f30e29840462950035043682f1e"
      ),
      (
        64, "1e17ae1fc093e5daca033553c97a5192ca164486",
        "d8bc63b4fc1156e5e7d95a418b9bf54cd3174bedbc2db40f74895349b229b3c0"
      ),
      (
        65, "ac44f5dbe3e9b5d2733fc9537fcad715c3c20bc3",
        "1ee23b0fbcaecc1aff4a9e8f1645f35ab2c8e13609cd73b68df8b5e3f63ce073"
      ),
      (
        119, "b4a4e69060d0b1e7e8ebbf7041a4211c63438b57",
        "7a6589821178918ca8d9edaba5abfc1e9b2669564f4469b66885379c1530b2c8"
      ),
      (
        120, "b651390c2996406336a3f6647e4b590c18cdd6f8",
        "655250427d56b1b0eeb8497d21428704273458a01772d6881b65c0abac0f8a98"
      ),
      (
        1000, "38f3aa587f4aa04965a359f9151092759b3a4c2a",
        "89f4ff56a25dd1db06a4ce6033603775d705fb96f30f8693733fef602a1ca532"
      ),
    ])
  func paddingEdges(length: Int, sha1: String, sha256: String) {
    // Byte i is i * 7 mod 256: every byte value appears, none at its own index.
    let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
    #expect(BodyHash.digest(message, .sha1) == "sha1:" + sha1)
    #expect(BodyHash.digest(message, .sha256) == "sha256:" + sha256)
  }
}
