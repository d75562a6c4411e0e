import Testing

@testable import TenantAPI

/// A page's size counted before it is decoded (#52): structure outside strings only.
@Suite("a tenant answer's shape, counted")
struct AnswerShapeTests {
  @Test("commas and braces inside strings, escaped quotes among them, are no values")
  func stringsHoldNoValues() {
    let plain = AnswerShape(Array(#"{"a":1,"b":[2,3]}"#.utf8))
    #expect(plain.values == 5 && plain.objects == 1)
    let quoted = AnswerShape(Array(#"{"a":"x,{[\",y","b":[2,3]}"#.utf8))
    #expect(quoted == plain)
    #expect(AnswerShape([]).values == 0)
  }
}
