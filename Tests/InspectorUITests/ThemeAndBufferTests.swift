import Foundation
import InspectorUI
import Session
import SessionValues
import Testing

@Suite("themes")
struct ThemeTests {
  @Test(
    "every built-in theme parses cleanly and matches its file in Themes/",
    arguments: Theme.builtInNames)
  func builtIn(name: String) throws {
    let loaded = try #require(ThemeLoader.builtIn(name))
    #expect(loaded.problems.isEmpty, "\(loaded.problems)")
    #expect(loaded.theme.name == name)
    #expect(Set(loaded.theme.styles.keys) == Set(StyleRole.allCases))
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Themes/\(name).yaml")
    let fromFile = ThemeLoader.parse(
      try String(contentsOf: file, encoding: .utf8), source: file.path, base: nil)
    #expect(
      fromFile.theme.styles == loaded.theme.styles,
      "the embedded copy of \(name) drifted from Themes/\(name).yaml")
  }

  @Test("a bad theme file is reported by key and line; the default fills in")
  func badFile() {
    let yaml = """
      name: mine
      styles:
        normal: { fg: 300 }
        warning: { fg: "#ff8800", bold: maybe }
        sparkle: { fg: 1 }
        error: { fg: red, bg: bright-white }
      """
    let loaded = ThemeLoader.parse(yaml, source: "mine.yaml", base: .standard)
    #expect(loaded.problems.contains { $0.hasPrefix("mine.yaml:3:") && $0.contains("normal.fg") })
    #expect(
      loaded.problems.contains { $0.hasPrefix("mine.yaml:4:") && $0.contains("warning.bold") })
    #expect(loaded.problems.contains { $0.hasPrefix("mine.yaml:5:") && $0.contains("sparkle") })
    #expect(loaded.theme.style(.normal) == Theme.standard.style(.normal))
    #expect(loaded.theme.style(.error).foreground == .index(1))
    #expect(loaded.theme.style(.error).background == .index(15))
    #expect(
      ThemeLoader.parse("styles: [", source: "x.yaml", base: .standard).problems.first?.contains(
        "not valid YAML") == true)
    #expect(
      ThemeLoader.load("nonexistent-theme").problems.first?.contains("neither a built-in") == true)
    #expect(
      ThemeLoader.load("hight-contrast").problems.first?.contains("Did you mean \"high-contrast\"?")
        == true)
  }

  @Test("truecolor falls back to the nearest of 256, and 256 to the nearest of 8")
  func fallback() {
    let orange = ThemeLoader.parse(
      "styles:\n  normal: { fg: \"#ff8700\" }\n", source: "t", base: nil)
    #expect(orange.theme.style(.normal).foreground == .index(208))
    #expect(ThemeColor.index(203).degraded(to: 8) == .index(1))
    #expect(ThemeColor.index(114).degraded(to: 8) == .index(2))
    #expect(ThemeColor.index(203).degraded(to: 256) == .index(203))
    #expect(ThemeColor.terminalDefault.degraded(to: 8) == .terminalDefault)
  }
}

@Suite("cell buffer")
struct CellBufferTests {
  @Test("wide characters take two columns; control characters never reach a cell; clipping")
  func putting() {
    var buffer = CellBuffer(width: 10, height: 1)
    let used = buffer.put("東京x\u{1B}y", x: 0, y: 0, role: .normal)
    #expect(used == 7)
    #expect(buffer.line(0).hasPrefix("東京x?y"))
    #expect(buffer.cells.allSatisfy { !$0.text.unicodeScalars.contains { $0.value < 0x20 } })
    var narrow = CellBuffer(width: 4, height: 1)
    #expect(narrow.put("abcdef", x: 1, y: 0, role: .normal) == 3)
    #expect(narrow.text == " abc")
    #expect(TextWidth.truncate("abcdef", to: 4) == "abc…")
  }

  @Test("a column never runs into the next: a text as wide as its column keeps one space")
  func columns() {
    #expect(TextWidth.column("sent", 6) == "sent  ")
    #expect(TextWidth.column("serverProcessed", 15) == "serverProcessed ")
    #expect(TextWidth.column("3 min 20 s ago", 13) == "3 min 20 s ago ")
    #expect(TextWidth.column("東京", 4) == "東京 ")
    #expect(TextWidth.column("東", 4) == "東  ")
  }

  @Test("wrapping breaks between words, and inside a word wider than the line")
  func wrapping() {
    #expect(TextWidth.wrap("one two three four", width: 9) == ["one two", "three", "four"])
    #expect(TextWidth.wrap("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
    #expect(TextWidth.wrap("東京東京", width: 4) == ["東京", "東京"])
    #expect(TextWidth.wrap("", width: 5).isEmpty && TextWidth.wrap("a", width: 0).isEmpty)
  }
}
