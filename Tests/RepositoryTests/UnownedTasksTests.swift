import Foundation
import Testing

/// The lines that start a task nobody owns: `Task.detached`, which no session work can cancel.
func unownedTasks(in lines: [Substring]) -> [(line: Int, text: String)] {
  let detached = try! Regex(#"\bTask\s*\.\s*detached\b"#)
  return lines.enumerated().compactMap { index, line in
    let text = line.trimmingCharacters(in: .whitespaces)
    guard !text.hasPrefix("//"), text.firstMatch(of: detached) != nil else { return nil }
    return (index + 1, text)
  }
}

@Suite("the inspector's tasks are owned by its session work", .timeLimit(.minutes(10)))
struct UnownedTasksTests {
  @Test("no Task.detached in the inspector (Sources/regscope, Sources/InspectorUI)")
  func noDetachedTasks() throws {
    for folder in ["Sources/regscope", "Sources/InspectorUI"] {
      let files = try swiftFiles(under: folder)
      #expect(!files.isEmpty, "\(folder) holds the inspector's code")
      for (path, lines) in files {
        for (line, text) in unownedTasks(in: lines) {
          Issue.record("\(path):\(line) starts a task nothing owns: \(text)")
        }
      }
    }
  }

  @Test("the check finds a detached task (so it can fail), and passes owned ones")
  func checkCanFail() {
    let found: [Substring] = [
      "        Task.detached {",
      "    let task = Task.detached(priority: .low) { await work() }",
      "    await Task . detached { }.value",
    ]
    #expect(unownedTasks(in: found).map(\.line) == [1, 2, 3])
    let owned: [Substring] = [
      "    worker = Task {",
      "            beside.addTask { await Self.fleet(plans, startedAt: startedAt, report: report) }",
      "    // Task.detached would outlive the session",
      "    let detachedTasks = 0",
    ]
    #expect(unownedTasks(in: owned).isEmpty, "\(unownedTasks(in: owned))")
  }
}
