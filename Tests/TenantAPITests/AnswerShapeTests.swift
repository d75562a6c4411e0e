import Foundation
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

  @Test("a page in UTF-16 (where 0x22 need not be a quote) is refused before it is counted")
  func notUTF8() {
    let text = #"{"page":1,"items":[0,0,0]}"#
    let utf16 = [UInt8(0xFF), 0xFE] + Array(text.data(using: .utf16LittleEndian) ?? Data())
    let bare = Array(text.data(using: .utf16LittleEndian) ?? Data())
    for body in [utf16, bare] {
      #expect {
        _ = try AnswerShape.read(body, what: "GET page")
      } throws: { error in "\(error)".contains("the answer is not UTF-8 text") }
    }
    #expect((try? AnswerShape.read(Array(text.utf8), what: "GET page"))?.values == 6)
  }
}
