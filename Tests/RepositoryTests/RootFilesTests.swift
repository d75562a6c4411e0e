import Foundation
import TestSupport
import Testing

/// The repository's root holds the package, its docs and its tools, nothing left over from a
/// benchmark or a profiler (a perf.data or a wrk run once sat there, committed by mistake).
@Suite("the repository's root", .timeLimit(.minutes(10)))
struct RootFilesTests {
  static let expected: Set<String> = [
    ".ci", ".git", ".gitignore", ".github", ".swift-format", "Benchmarks", "Package.swift",
    "README.md", "Sources", "Tests", "Themes", "docs", "scripts",
  ]

  /// What git tracks at the root: a new clone's view, whatever a developer's folder holds.
  static func tracked() async throws -> Set<String> {
    let git = try await runTool("git", ["-C", repository.path, "ls-files"])
    #expect(git.status == 0, "\(git.stderr)")
    return Set(
      git.stdout.split(separator: "\n").compactMap {
        $0.split(separator: "/").first.map(String.init)
      })
  }

  @Test("no stray file at the root: only the package, its docs, tests and tools")
  func noStrayFiles() async throws {
    let stray = try await Self.tracked().subtracting(Self.expected)
    #expect(stray.isEmpty, "stray files at the root: \(stray.sorted())")
  }

  @Test(".gitignore keeps profiler and benchmark output out", arguments: ["perf.data", "bwrk.txt"])
  func ignored(name: String) async throws {
    let git = try await runTool("git", ["-C", repository.path, "check-ignore", "-q", name])
    #expect(git.status == 0, "\(name) is not ignored")
  }
}
