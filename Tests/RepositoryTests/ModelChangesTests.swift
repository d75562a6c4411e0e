import Foundation
import Testing

/// The lines of the inspector's runtime that change its model other than through
/// `Inspector.update`: an assignment to the model or a part of it, a mutating call on a part,
/// the model handed `inout` to anything else, or what update asked for dropped.
func modelChanges(in lines: [Substring]) -> [(line: Int, text: String)] {
  let assigned = try! Regex(#"(?:^|[^\w.]|self\.)model(?:\.\w+|\[[^\]]*\])*\s*[-+*/]?=(?:[^=]|$)"#)
  let mutated = try! Regex(
    #"(?:^|[^\w.]|self\.)model(?:\.\w+)+\.(?:append|insert|remove\w*|toggle|sort|reverse|swapAt|formUnion|subtract)\("#
  )
  let declared = try! Regex(#"\b(?:let|var)\s+model\b"#)
  var found: [(Int, String)] = []
  for (index, line) in lines.enumerated() {
    let text = line.trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("//") { continue }
    let changes =
      text.contains("_ = Inspector.update(")
      || (text.contains("&model") && !text.contains("Inspector.update(&model"))
      || (text.firstMatch(of: declared) == nil
        && (text.firstMatch(of: assigned) != nil || text.firstMatch(of: mutated) != nil))
    if changes { found.append((index + 1, text)) }
  }
  return found
}

@Suite("the inspector's model changes only in update", .timeLimit(.minutes(10)))
struct ModelChangesTests {
  /// The model the loop starts from (`App.init`).
  static let initial = "model = InspectorModel("

  @Test("the runtime (Sources/regscope) changes the model only through Inspector.update")
  func onlyThroughUpdate() throws {
    for (path, lines) in try swiftFiles(under: "Sources/regscope") {
      for (line, text) in modelChanges(in: lines) where !text.hasPrefix(Self.initial) {
        Issue.record("\(path):\(line) changes the model outside update: \(text)")
      }
    }
  }

  @Test("the check finds a change beside update (so it can fail), and passes update's own")
  func checkCanFail() {
    let changes: [Substring] = [
      "  func showReceivingApp(_ lines: [String]) { model.receivingApp = lines }",
      "    self.model.demo = nil",
      "    model.events[0] += 1",
      "    model.notices.append(notice)",
      "    _ = Inspector.update(&model, message)",
      "    Focus.cycle(&model)",
    ]
    #expect(modelChanges(in: changes).map(\.line) == Array(1...changes.count))
    let reads: [Substring] = [
      "    perform(Inspector.update(&model, message))",
      "    let effects = Inspector.update(&model, message)",
      "    let model = self.model",
      "    if model.focus == .record || model.width >= 80 || model.height != 0 {",
      "    session.model = other",
      "    // model.zone = .system",
    ]
    #expect(modelChanges(in: reads).isEmpty, "\(modelChanges(in: reads))")
  }
}
