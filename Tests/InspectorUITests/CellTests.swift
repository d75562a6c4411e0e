import Testing

@testable import InspectorUI

@Suite("cells hold graphemes as plain bits")
struct CellTests {
  @Test(
    "any grapheme comes back as it went in, whatever its length",
    arguments: [
      " ", "a", "→", "…", "⚿", "東", "🇫🇷", "e\u{301}", "👍🏽", "👨‍👩‍👧", "👨‍👩‍👧‍👦",
      "a\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}", "", "\u{FFFD}",
    ])
  func roundTrip(text: String) {
    let cell = Cell(text: text, role: .accent)
    #expect(cell.text == text)
    #expect(cell.role == .accent)
    #expect(cell == Cell(text: text, role: .accent))
    #expect(cell != Cell(text: text, role: .normal))
    #expect(cell.text.isEmpty || cell != Cell(text: text + "x", role: .accent))
  }

  @Test("15 bytes fit inline; 16 bytes and more are kept once and still compare by text")
  func longGlyphs() {
    let fifteen = String(repeating: "a\u{301}", count: 5)  // 5 x 3 bytes
    let sixteen = fifteen + "b"
    #expect(fifteen.utf8.count == 15 && sixteen.utf8.count == 16)
    #expect(Cell(text: fifteen, role: .normal).text == fifteen)
    #expect(Cell(text: sixteen, role: .normal).text == sixteen)
    #expect(Cell(text: sixteen, role: .normal) == Cell(text: sixteen, role: .normal))
    #expect(Cell(text: sixteen, role: .normal) != Cell(text: fifteen, role: .normal))
  }

  @Test(
    "put lays text out the same whether it goes scalar by scalar or grapheme by grapheme",
    arguments: [
      "plain", "Zoë → ok", "東京 tower", "─┐│ ⚿ ALL", "e\u{301}te", "👨‍👩‍👧 family", "🇫🇷 and ⌚",
      "tab\there", "한국어",
    ])
  func putPaths(text: String) {
    var buffer = CellBuffer(width: 12, height: 1)
    let used = buffer.put(text, x: 1, y: 0, role: .normal, limit: 10)
    // The reference: one grapheme at a time.
    var expected = CellBuffer(width: 12, height: 1)
    var column = 1
    for character in text {
      let width = TextWidth.of(character)
      if width == 0 { continue }
      if column + width > 11 { break }
      expected.put(String(character), x: column, y: 0, role: .normal)
      column += width
    }
    #expect(buffer == expected, "\(text)")
    #expect(used == column - 1)
  }
}
