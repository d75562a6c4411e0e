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
}
