import Foundation
import Testing

/// The swift build lines of a shell script that build `product`, and whether each is a release
/// build (`-c release` or `--configuration release`, the words as the script spells them).
func builds(of product: String, in script: String) -> [(line: String, release: Bool)] {
  script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    .filter { !$0.hasPrefix("#") && $0.contains("swift build") && $0.contains(product) }
    .map { line in
      let release =
        line.contains("-c release") || line.contains("--configuration release")
        || (line.contains("${release[@]}") && script.contains("release=(-c release)"))
      return (line, release)
    }
}

/// The instruction gate counts what users run: the release build, not the debug build whose
/// costs (no inlining, no specialising) once drove rewrites that bought users nothing (#44).
@Suite("the instruction gate", .timeLimit(.minutes(10)))
struct GateBuildTests {
  @Test("Benchmarks/gate.sh builds the bench it counts in release, and only so")
  func gateOnRelease() throws {
    let script = try String(
      contentsOf: repository.appendingPathComponent("Benchmarks/gate.sh"), encoding: .utf8)
    let found = builds(of: "regscope-bench", in: script)
    #expect(!found.isEmpty, "gate.sh builds no regscope-bench")
    for build in found { #expect(build.release, "a debug build in the gate: \(build.line)") }
  }

  @Test("the check tells a debug build from a release one (so it can fail)")
  func checkCanFail() {
    #expect(
      builds(of: "regscope-bench", in: "swift build --product regscope-bench").map(\.release) == [
        false
      ])
    #expect(
      builds(of: "regscope-bench", in: "swift build -c release --product regscope-bench").map(
        \.release) == [true])
    #expect(builds(of: "regscope-bench", in: "# swift build --product regscope-bench").isEmpty)
  }
}
