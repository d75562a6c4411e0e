import Foundation
import TestSupport
import Testing

/// The repository's root.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The README and every guide in docs/.
func documents() throws -> [(name: String, text: String)] {
  let docs = repository.appendingPathComponent("docs")
  let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path)
    .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  return try (["README.md"] + guides).map {
    ($0, try String(contentsOf: repository.appendingPathComponent($0), encoding: .utf8))
  }
}

/// A command a document shows: the tool, its subcommand (regctl's), and the flags it uses.
struct ShownCommand: Hashable, CustomStringConvertible {
  var tool: String
  var subcommand: String?
  var flags: [String]
  var source: String

  var description: String { "\(source): \(tool) \(subcommand ?? "") \(flags)" }

  /// `regctl serve --app-id ID`, `swift run -c release regctl fleet --devices 10`: nil when the
  /// text is not a command of the two tools.
  init?(_ text: String, source: String) {
    var words = text.split(separator: " ").map(String.init)
    if words.first == "swift", words.count > 2, words[1] == "run" {
      words.removeFirst(2)
      if words.first == "-c" { words.removeFirst(2) }
    }
    guard let tool = words.first, ["regctl", "regscope"].contains(tool) else { return nil }
    words.removeFirst()
    self.tool = tool
    self.source = source
    if tool == "regctl", let first = words.first, !first.hasPrefix("-"), !first.hasPrefix("[") {
      subcommand = first
    }
    flags = words.compactMap { word in
      let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
      guard trimmed.hasPrefix("--") else { return nil }
      return String(trimmed.prefix { $0 != "=" })
    }
  }
}

/// Every command a document shows, in a fenced block or inline.
func shownCommands() throws -> [ShownCommand] {
  var shown: [ShownCommand] = []
  for (name, text) in try documents() {
    var fenced = false
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if line.hasPrefix("```") {
        fenced.toggle()
        continue
      }
      let source = "\(name):\(number + 1)"
      if fenced {
        let command = line.split(separator: "#").first.map(String.init) ?? ""
        if let found = ShownCommand(command.trimmingCharacters(in: .whitespaces), source: source) {
          shown.append(found)
        }
        continue
      }
      // Inline code: the text between pairs of backticks.
      let spans = line.split(separator: "`", omittingEmptySubsequences: false)
      for index in stride(from: 1, to: spans.count, by: 2) {
        if let found = ShownCommand(String(spans[index]), source: source) { shown.append(found) }
      }
    }
  }
  return shown
}

@Suite("the docs' commands", .timeLimit(.minutes(10)))
struct DocsCommandsTests {
  @Test("the docs show the tools' commands (the reader finds them, and this test has work)")
  func commandsAreFound() throws {
    let shown = try shownCommands()
    #expect(shown.contains { $0.tool == "regscope" && $0.flags.contains("--receive") })
    #expect(shown.contains { $0.subcommand == "serve" })
    #expect(shown.count >= 20, "\(shown.count) commands found")
  }

  @Test("docs/testing.md names every fuzz target, as regscope-fuzz spells it")
  func fuzzTargetsNamed() throws {
    let source = try String(
      contentsOf: repository.appendingPathComponent("Tests/Fuzz/FuzzTargets.swift"),
      encoding: .utf8)
    let cases = try #require(
      source.split(separator: "\n").first { $0.contains("case scenario,") })
    let targets = cases.replacingOccurrences(of: "case", with: "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(targets.count >= 8, "\(targets)")
    let testing = try String(
      contentsOf: repository.appendingPathComponent("docs/testing.md"), encoding: .utf8)
    for target in targets {
      #expect(testing.contains("`\(target)`"), "docs/testing.md does not name \(target)")
    }
  }

  @Test("every command the docs show names a subcommand that exists and flags its --help lists")
  func everyCommandParses() async throws {
    // regctl's own list of subcommands, from its help (a help flag after an unknown word still
    // prints the top-level help, so asking each one is not enough).
    let top = try await runProcess(builtProduct("regctl"), ["--help"])
    let subcommands = Set(
      top.stdout.components(separatedBy: "SUBCOMMANDS:").dropFirst().first?
        .split(separator: "\n").compactMap { line -> String? in
          guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
          return line.split(separator: " ").first.map(String.init)
        } ?? [])
    #expect(subcommands.contains("serve") && subcommands.contains("judge"), "\(subcommands)")
    var helps: [String: String] = [:]
    for command in try shownCommands() {
      if let subcommand = command.subcommand {
        #expect(subcommands.contains(subcommand), "\(command): regctl has no \(subcommand)")
      }
      let key = command.tool + " " + (command.subcommand ?? "")
      if helps[key] == nil {
        let arguments = (command.subcommand.map { [$0] } ?? []) + ["--help-hidden"]
        let output = try await runProcess(builtProduct(command.tool), arguments)
        // An unknown subcommand fails here: ArgumentParser refuses it.
        #expect(output.status == 0, "\(command): \(key) --help-hidden: \(output.stderr)")
        helps[key] = output.stdout + output.stderr
      }
      for flag in command.flags {
        let help = helps[key] ?? ""
        #expect(
          help.contains(flag + " ") || help.contains(flag + "\n") || help.contains(flag + ","),
          "\(command): \(key)--help does not list \(flag)")
      }
    }
  }
}
