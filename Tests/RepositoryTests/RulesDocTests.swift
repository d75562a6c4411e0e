import Foundation
import Testing

/// The rules the code and tests cite (`R3.2`, `S5`) are readable in the repository
/// (docs/rules.md), so a clone can follow every citation without the steering documents.
@Suite("docs/rules.md holds every rule the code cites")
struct RulesDocTests {
  /// Rule numbers in a text: R or S, a number, maybe a dot and a number, on word boundaries.
  static func citations(in text: String) -> Set<String> {
    let pattern = try? NSRegularExpression(pattern: #"\b[RS][0-9]+(\.[0-9]+)?\b"#)
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      (pattern?.matches(in: text, range: range) ?? []).compactMap {
        Range($0.range, in: text).map { String(text[$0]) }
      })
  }

  @Test("every R/S number cited in Sources and Tests is a rule of docs/rules.md")
  func everyCitationIsThere() throws {
    let rules = try String(
      contentsOf: repository.appendingPathComponent("docs/rules.md"), encoding: .utf8)
    // A rule is a heading (`## R3 ...`) or a bullet (`- R3.2 ...`).
    let defined = Set(
      rules.split(separator: "\n").compactMap { line -> String? in
        let words = line.split(separator: " ")
        guard words.count > 1, words[0] == "-" || words[0] == "##" else { return nil }
        return Self.citations(in: String(words[1])).first
      })
    var cited: Set<String> = []
    for folder in ["Sources", "Tests"] {
      let root = repository.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift" else { continue }
        cited.formUnion(Self.citations(in: try String(contentsOf: file, encoding: .utf8)))
      }
    }
    #expect(cited.count > 40, "the scan found the citations: \(cited.sorted())")
    let missing = cited.subtracting(defined)
    #expect(missing.isEmpty, "cited but not in docs/rules.md: \(missing.sorted())")
  }
}
