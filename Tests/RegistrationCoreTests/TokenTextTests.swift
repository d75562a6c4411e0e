import Testing

@testable import RegistrationCore

/// Security: a token is never printed whole; it shows four characters and its length.
@Suite("a token, masked")
struct TokenTextTests {
  /// The characters and the count as a String counts them: what the fast path must equal.
  static func byCharacters(_ value: String) -> String {
    let count = value.count
    guard count >= 12 else { return "…(\(count) chars)" }
    return "\(value.prefix(4))…(\(count) chars)"
  }

  @Test(
    "four characters and the length, for ASCII, CR LF, accents, emoji and short tokens",
    arguments: [
      "load-token-0123456789", "rs-0123456789abcdef0123456789abcdef", "short", "",
      "12345678901", "123456789012", "ab\r\ncd\r\nefghijklmn", "été-token-0123456789",
      "👨‍👩‍👧‍👦-family-token-01234", "e\u{301}e\u{301}-combining-0123",
    ])
  func masked(_ value: String) {
    #expect(TokenText.masked(value) == Self.byCharacters(value))
    if value.count >= 12 { #expect(!TokenText.masked(value).contains(value)) }
  }

  @Test("the fingerprint tells two tokens apart and is the same for the same token")
  func fingerprint() {
    let a = TokenText.fingerprinted("rs-0123456789abcdef")
    #expect(a == TokenText.fingerprinted("rs-0123456789abcdef"))
    #expect(a != TokenText.fingerprinted("rs-0123456789abcdee"))
    #expect(!a.contains("0123456789abcdef") && a.hasPrefix("rs-0…(19 chars) #"))
  }

  @Test("a token differing in any one character fingerprints differently")
  func fingerprintEveryPosition() {
    let token = Array("rs-0123456789abcdef0123456789abcdef".utf8)
    let fingerprints = Set(
      token.indices.map { index in
        var changed = token
        changed[index] ^= 0x01
        return TokenText.fingerprint(String(decoding: changed, as: UTF8.self))
      })
    #expect(fingerprints.count == token.count)
    #expect(!fingerprints.contains(TokenText.fingerprint(String(decoding: token, as: UTF8.self))))
  }

  @Test("the fingerprint is the same in every run (captures of two runs compare)")
  func fingerprintIsStable() {
    // Pinned: a fingerprint from a process-seeded hash would differ from run to run.
    #expect(TokenText.fingerprinted("rs-0123456789abcdef") == "rs-0…(19 chars) #7d4b560b")
  }

  @Test("a mask is known as one (never masked again); a token is not, whatever it looks like")
  func masks() {
    for token in ["rs-0123456789abcdef", "short", "abcdefghijkl", "", "…(5 chars)x"] {
      #expect(TokenText.isMasked(TokenText.masked(token)) == true, "\(token)")
      #expect(TokenText.isMasked(TokenText.fingerprinted(token)) == true, "\(token)")
    }
    for text in [
      "rs-0123456789abcdef", "rs-0…(19 chars) #7d4b560", "rs-0…(19 chars) #7d4b560g",
      "rs-0…(5 chars)", "…(19 chars)", "rs-0…(19 chars) extra", "rs-0…(chars)",
      "rs-0…(19 chars) #7d4b560b ", "rs-0…(99999999999999999999 chars)",
    ] {
      #expect(TokenText.isMasked(text) == false, "\(text)")
    }
  }

  @Test("a token is the prefix then its bytes in lowercase hex")
  func hexToken() {
    let bytes: [UInt8] = [0x00, 0x0f, 0xa5, 0xff]
    #expect(bytes.withUnsafeBytes { TokenText.hex(prefix: "rs-", $0) } == "rs-000fa5ff")
    #expect([UInt8]().withUnsafeBytes { TokenText.hex(prefix: "", $0) } == "")
  }
}
