import Foundation
import Testing

@testable import RegistrationCore

/// The one decoder of string escapes both body readers use, held to Foundation's reading of
/// the same string, and refusing what JSON does not have. (BodyReadingTests reads a key's
/// escapes through the strict reader.)
@Suite("JSON string escapes")
struct JSONEscapesTests {
  static func decoded(_ inside: String) -> String? {
    Array(inside.utf8).withUnsafeBufferPointer { JSONEscapes.decoded($0) }
      .map { String(decoding: $0, as: UTF8.self) }
  }

  @Test(
    "each escape reads as Foundation reads it",
    arguments: [
      #"plain"#, #"\"q\" \\ \/"#, #"\b\f\n\r\t"#, #"\u00e9\u00E9"#, #"\ud83d\ude00 x"#,
      #"caf\u00e9 \uD83D\uDE00\u0000"#, "raw é kept",
    ])
  func likeFoundation(inside: String) throws {
    let whole = try JSONDecoder().decode(
      String.self, from: Data(("\"" + inside + "\"").utf8))
    #expect(Self.decoded(inside) == whole)
  }

  @Test(
    "what JSON does not have is nil",
    arguments: [
      #"\q"#, #"\u12"#, #"\u12G4"#, #"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"\ud800x"#,
      #"end\"#,
    ])
  func refused(inside: String) {
    #expect(Self.decoded(inside) == nil)
  }

  @Test("a raw control character is kept as it is, R6.4's exception to strictness")
  func rawControl() {
    #expect(Self.decoded("a\tb\u{1}") == "a\tb\u{1}")
  }

}
