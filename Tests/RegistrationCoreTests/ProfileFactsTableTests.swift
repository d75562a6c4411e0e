import Foundation
import RegistrationCore
import Testing

/// SDK-FACTS stays the source (#29 item 7): each versioned profile's facts, with the section
/// each comes from, are kept in docs/sdk-versions.md beside the facts, and read here against
/// the profiles.
@Suite("the profiles against the table kept beside SDK-FACTS")
struct ProfileFactsTableTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The table's rows, by profile.
  static func table() throws -> [String: [ProfileFact]] {
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/sdk-versions.md"), encoding: .utf8)
    var rows: [String: [ProfileFact]] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
      guard cells.count == 4, cells[0] != "profile", cells[0] != "---" else { continue }
      rows[cells[0], default: []].append(ProfileFact(cells[1], cells[2], cells[3]))
    }
    return rows
  }

  @Test("every profile in the table has exactly its rows, each citing a section the facts have")
  func table() throws {
    let rows = try Self.table()
    #expect(rows.count >= 9, "\(rows.keys.sorted())")
    for (spelled, facts) in rows {
      let profile = try #require(SDKProfile(loose: spelled), "\(spelled)")
      #expect(profile.facts == facts, "\(spelled)")
      for fact in facts { #expect(SDKProfile.factSections.contains(fact.section), "\(fact)") }
    }
    // The majors apps run are all in it.
    for spelled in ["android@8.2.1", "android@9.0.0", "ios@8.1.4", "ios@9.0.0", "ios", "android"] {
      #expect(rows[spelled] != nil, "\(spelled) has no rows")
    }
  }

  @Test("the sections cited are SDK-FACTS' own headings")
  func sections() throws {
    let facts = Self.root.deletingLastPathComponent().appendingPathComponent("shared/SDK-FACTS.md")
    // The facts sit beside the project in the workplace and in CI; a bare clone has none.
    guard let text = try? String(contentsOf: facts, encoding: .utf8) else { return }
    let headings = Set(
      text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3) })
    for section in SDKProfile.factSections {
      #expect(headings.contains(Substring(section)), "\(section) is not a heading of SDK-FACTS")
    }
  }
}
