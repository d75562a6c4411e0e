import Foundation
import Testing

@testable import QA

/// Bad plans get errors that say where (file, line, column) and what was expected.
@Suite("reading QA plans")
struct QAPlanParserTests {
  static func error(_ yaml: String) -> String {
    do {
      _ = try QAPlanParser.parse(yaml, source: "plan.yaml")
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  @Test("every built-in plan reads; every step but a fault has a time-out")
  func builtIns() throws {
    for (name, text) in BuiltInPlans.yaml {
      let plan = try QAPlanParser.parse(text, source: name)
      #expect(plan.name == name && !plan.steps.isEmpty)
      #expect(
        plan.steps.allSatisfy { step in
          if case .fault = step.action { return true }
          return step.timeout != nil
        })
    }
    #expect(BuiltInPlans.plan("release-check")?.steps.count == 19)
  }

  @Test(
    "bad plans: each error names the place and the fix",
    arguments: [
      ("name: p\nsteps:\n  - wait: 5m\n", "plan.yaml:3:5", "unknown key \"wait\""),
      (
        "name: p\nsteps:\n  - expect: regsitration\n    timeout: 1m\n", "plan.yaml:3:13",
        "Did you mean \"registration\"?"
      ),
      ("name: p\nsteps:\n  - fault: 200 x3\n", "plan.yaml:3:12", "unknown fault \"200 x3\""),
      ("name: p\nsteps:\n  - fault: teapot\n", "plan.yaml:3:12", "the receiver's faults are"),
      ("name: p\nsteps:\n  - expect: registration\n", "plan.yaml:3:5", "needs a timeout:"),
      (
        "name: p\nsteps:\n  - expect: registration\n    timeout: -5m\n", "plan.yaml:4:14", "timeout"
      ),
      (
        "name: p\nsteps:\n  - expect: registration\n    timeout: 25h\n", "plan.yaml:4:14",
        "at most a day"
      ),
      (
        "name: p\nsteps:\n  - ask: x\n    fault: up\n    timeout: 1m\n", "plan.yaml:3:5",
        "exactly one of ask:, fault: or expect:"
      ),
      ("name: p\nsteps:\n  - expect: body-has\n    timeout: 1m\n", "plan.yaml:3:13", "needs tags:"),
      ("name: p\nsteps: [\n", "plan.yaml:3:1", "is not valid YAML"),
      ("steps:\n  - fault: up\n", "plan.yaml:1:1", "needs a name"),
      ("", "plan.yaml:1:1", "the file is empty"),
    ])
  func badPlans(yaml: String, place: String, says: String) {
    let text = Self.error(yaml)
    #expect(text.hasPrefix(place), "\(text)")
    #expect(text.contains(says), "\(text)")
  }

  @Test("escapes in a plan's text never reach the terminal raw")
  func escapes() {
    let text = Self.error("name: p\nsteps:\n  - fault: \"\\e]0;owned\\a\"\n")
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text)")
  }

  @Test("faults as the receiver spells them")
  func faults() {
    #expect(
      QAFaultText.parse("503 x3")?.kind == .status(503, times: 3, retryAfter: nil, duration: nil))
    #expect(
      QAFaultText.parse("fail 503 times 3")?.kind
        == .status(503, times: 3, retryAfter: nil, duration: nil))
    #expect(
      QAFaultText.parse("429 retry-after 120")?.kind
        == .status(429, times: nil, retryAfter: 120, duration: nil))
    #expect(QAFaultText.parse("down 5m")?.kind == .down(300))
    #expect(QAFaultText.parse("up")?.kind == .up)
    for bad in ["503 x0", "503 x1e9", "down forever", "429 retry-after 1e20", "503 for 2d", ""] {
      #expect(QAFaultText.parse(bad) == nil, "\(bad)")
    }
  }

  @Test("a plan path that is a device, a directory or over 1 MB is refused before it is read")
  func boundedFile() throws {
    let large = FileManager.default.temporaryDirectory
      .appendingPathComponent("plan-\(UUID().uuidString).yaml")
    try Data(repeating: 0x20, count: (1 << 20) + 1).write(to: large)
    defer { try? FileManager.default.removeItem(at: large) }
    for (path, says) in [
      ("/dev/zero", "is not a regular file"),
      (FileManager.default.temporaryDirectory.path, "is a directory"),
      (large.path, "at most 1048576 are read"),
    ] {
      #expect {
        _ = try QAPlanParser.parse(file: path)
      } throws: { error in
        "\(error)".hasPrefix("\(path):1:1: ") && "\(error)".contains(says)
      }
    }
  }
}
