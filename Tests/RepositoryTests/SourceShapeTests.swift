import Foundation
import Testing

/// The Swift files under `folder`, relative to the repository.
func swiftFiles(under folder: String) throws -> [(path: String, lines: [Substring])] {
  let root = repository.appendingPathComponent(folder)
  guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
  return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
    let text = try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)
    return ("\(folder)/\($0)", text.split(separator: "\n", omittingEmptySubsequences: false))
  }
}

/// Functions, initializers and computed properties longer than `limit` lines, from their first
/// line to the brace that closes them at their indentation (swift format keeps that exact).
func longBodies(in file: [Substring], limit: Int) -> [(line: Int, length: Int)] {
  let start = try! Regex(
    #"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|mutating|nonisolated|override|final|package|convenience|required)\s+)*(func|init|var|subscript)\b"#
  )
  var found: [(Int, Int)] = []
  for (index, line) in file.enumerated() {
    guard let match = try? start.firstMatch(in: String(line)) else { continue }
    let indent = String(line.prefix { $0 == " " })
    let keyword = match.output[2].substring ?? ""
    if keyword == "var" && (line.contains("=") || !line.hasSuffix("{")) { continue }
    // The body opens on this line or within the signature's next few lines.
    guard
      let open = (index..<min(file.count, index + 12)).first(where: {
        file[$0].hasSuffix("{")
      })
    else { continue }
    if (index + 1...max(index + 1, open)).contains(where: {
      $0 < file.count && $0 > index && file[$0].hasPrefix(indent)
        && !file[$0].hasPrefix(indent + " ")
        && !file[$0].hasPrefix(indent + ")")
    }) {
      continue
    }
    guard
      let close = (open + 1..<file.count).first(where: { file[$0].hasPrefix(indent + "}") })
    else { continue }
    let length = close - index + 1
    if length > limit { found.append((index + 1, length)) }
  }
  return found
}

@Suite("the shape of the sources", .timeLimit(.minutes(10)))
struct SourceShapeTests {
  @Test("no function in Sources is over 80 lines")
  func shortFunctions() throws {
    for (path, lines) in try swiftFiles(under: "Sources") {
      for (line, length) in longBodies(in: lines, limit: 80) {
        Issue.record("\(path):\(line) is \(length) lines long")
      }
    }
  }

  @Test("no file in Sources is over 350 lines")
  func shortFiles() throws {
    for (path, lines) in try swiftFiles(under: "Sources") {
      // The last element is what follows the final newline.
      let count = lines.count - (lines.last?.isEmpty == true ? 1 : 0)
      if count > 350 { Issue.record("\(path) is \(count) lines long") }
    }
  }

  @Test("the length check finds a long function (so it can fail)")
  func lengthCheckCanFail() {
    let body = ["  func long() {"] + Array(repeating: "    step()", count: 85) + ["  }"]
    #expect(longBodies(in: body.map { Substring($0) }, limit: 80).map(\.length) == [87])
    #expect(longBodies(in: body.prefix(40).map { Substring($0) } + ["  }"], limit: 80).isEmpty)
  }

  @Test("sessions and clocks say what they are: no downcast to a session or a clock type")
  func noSessionOrClockDowncasts() throws {
    let types = [
      "ScaledClock", "VirtualClock", "SystemClock", "DeviceSession", "ReceiverSession",
      "ImportedSession", "CaptureSession",
    ]
    for (path, lines) in try swiftFiles(under: "Sources") {
      for (index, line) in lines.enumerated() {
        for type in types
        where line.contains("as? \(type)") || line.contains("as! \(type)")
          || line.contains(" is \(type)")
        {
          Issue.record("\(path):\(index + 1) casts to \(type): \(line)")
        }
      }
    }
  }

  @Test("finding codes are FindingCode's cases, never a string written out")
  func noStringFindingCodes() throws {
    let code = try Regex(#"code(:| ==| !=) "[a-z]+[A-Z]\w*""#)
    for (path, lines) in try swiftFiles(under: "Sources") {
      for (index, line) in lines.enumerated() where (try? code.firstMatch(in: String(line))) != nil
      {
        Issue.record("\(path):\(index + 1) writes a code as a string: \(line)")
      }
    }
  }

  @Test("only Sources/SystemCalls imports the C library")
  func oneFileImportsLibc() throws {
    for (path, lines) in try swiftFiles(under: "Sources")
    where !path.hasPrefix("Sources/SystemCalls/") {
      for line in lines where line.contains("import Glibc") || line.contains("import Darwin") {
        Issue.record("\(path) imports the C library: \(line)")
      }
    }
  }

  @Test("the README stays short (at most 250 lines); the rest is in docs/")
  func shortReadme() throws {
    let readme = try String(
      contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
    for (name, text) in try documents() {
      for link in text.split(separator: "](").dropFirst() {
        let target = link.prefix { $0 != ")" }
        guard target.hasPrefix("docs/") || (name.hasPrefix("docs/") && target.hasSuffix(".md")),
          !target.contains("://")
        else { continue }
        let base = name.hasPrefix("docs/") && !target.hasPrefix("docs/") ? "docs/" : ""
        let path = base + String(target.prefix { $0 != "#" })
        #expect(
          FileManager.default.fileExists(atPath: repository.appendingPathComponent(path).path),
          "\(name) links to \(target), which is not there")
      }
    }
  }
}
