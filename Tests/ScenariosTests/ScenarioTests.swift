import Foundation
import RegistrationCore
import Session
import SessionHTTP
import SessionValues
import Testing
import YAMLFiles

@testable import Scenarios

@Suite("scenarios in virtual time")
struct ScenarioTests {
  @Test(
    "every built-in scenario passes its expectations", arguments: BuiltInScenarios.all.map(\.name))
  func builtIn(name: String) async throws {
    let entry = try #require(BuiltInScenarios.named(name))
    let report = try await ScenarioRunner.run(try BuiltInScenarios.scenario(entry))
    #expect(report.errors.isEmpty, "\(report.errors)")
    #expect(!report.checks.isEmpty)
    for failure in report.failures {
      Issue.record("\(name): \(failure.text) at \(failure.position): \(failure.actual)")
    }
  }

  @Test(
    "built-ins also pass over real loopback HTTP",
    arguments: [
      "throttle-coalesces", "retry-after", "orphan-shared-device",
      "undefined-attribute-rejected", "backoff-30-day-outage",
    ])
  func overHTTP(name: String) async throws {
    let entry = try #require(BuiltInScenarios.named(name))
    let report = try await ScenarioRunner.run(
      try BuiltInScenarios.scenario(entry), factory: SessionFactory(network: HTTPNetwork()),
      overHTTP: true)
    #expect(report.passed, "\(report.failures.map(\.actual)) \(report.errors)")
    // A server that is down refuses at once; a time-out here would mean the listener lingered.
    for event in report.events {
      if case .engine(.failed(_, _, nil, let error, _, _, _)) = event.body {
        #expect(error == "connection refused", "\(name): \(error ?? "")")
      }
    }
  }

  @Test("the DESIGN.md example, as written there, runs without changes")
  func designExample() async throws {
    let yaml = """
      name: throttle-coalesces
      description: two edits inside one minute travel in one registration
      config: { platform: iOS, delayRegistrationUntilContactKeyIsSet: false }
      server: { definedAttributes: [CODE], processingDelay: 5m }
      steps:
        - { at: 0s,  do: launch }
        - { at: 10s, do: tag add sports }
        - { at: 20s, do: attr set CODE FREE99 }
        - { at: 2m,  expect: "sent == 2" }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "design.yaml"))
    #expect(report.passed)
    let sent = report.events.filter { $0.type == "sent" }.map(\.t.seconds)
    #expect(sent == [0, 70])
  }

  @Test("a failing expectation names the step, the expected and the actual value")
  func failingExpectation() async throws {
    let yaml = """
      name: wrong
      steps:
        - { at: 0s, do: launch }
        - { at: 2m, expect: "sent == 3" }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "w.yaml"))
    #expect(!report.passed)
    let failure = try #require(report.failures.first)
    #expect(failure.step == 2)
    #expect(failure.actual == "sent = 1")
    #expect(failure.position == SourcePosition(file: "w.yaml", line: 4, column: 24))
    #expect(
      TimelinePrinter.summary(report).contains(
        "expected sent == 3 at step 2 (w.yaml:4:24); sent = 1"))
  }

  @Test("a command before launch is a step error, not a crash")
  func beforeLaunch() async throws {
    let yaml = """
      name: early
      steps:
        - { at: 0s, do: tag add x }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "e.yaml"))
    #expect(!report.passed)
    #expect(report.errors.first?.message.contains("add `launch` first") == true)
  }

  @Test(
    "bad scenario files: file, line, column and what was expected",
    arguments: [
      ("name: x\nstpes: []\n", 2, 1, "Did you mean \"steps\"?"),
      (
        "name: x\nsteps:\n  - { at: 10s, do: \"tga add sports\" }\n", 3, 21, "Did you mean \"tag\"?"
      ),
      ("name: x\nsteps:\n  - { at: 10s, do: tag add }\n", 3, 27, "expected the tag"),
      ("name: x\nsteps:\n  - { at: 1m, expect: \"snet == 1\" }\n", 3, 24, "Did you mean \"sent\"?"),
      ("name: x\nsteps:\n  - { at: 1m, expect: \"sent = 1\" }\n", 3, 29, "unknown operator"),
      ("name: x\nsteps:\n  - { at: soon, do: launch }\n", 3, 11, "duration"),
      (
        "name: x\nsteps:\n  - { at: 2m, do: launch }\n  - { at: 1m, do: launch }\n", 4, 5,
        "steps go forward in time"
      ),
      ("name: x\nsteps:\n  - { at: 1m }\n", 3, 5, "needs do:, expect: or say:"),
      ("steps: []\n", 1, 1, "needs a name"),
      ("name: x\nconfig: { platform: Windows }\nsteps: []\n", 2, 21, "iOS or Android"),
      // A version the grammar refuses is explained with the grammar, as --sdk explains it.
      ("name: x\nconfig: { sdk: android@8.01.0 }\nsteps: []\n", 2, 16, "no leading zero"),
      ("name: x\nconfig: { sdk: windows }\nsteps: []\n", 2, 16, "a version read (8.0.0"),
      ("name: x\ndevice: { timezone: east }\nsteps: []\n", 2, 11, "UTC offset"),
      ("name: x\nsteps:\n  - { at: 0s, do: launch\n", 4, 1, "not valid YAML"),
    ])
  func badFiles(yaml: String, line: Int, column: Int, says: String) {
    #expect {
      _ = try ScenarioParser.parse(yaml, source: "bad.yaml")
    } throws: { error in
      guard let error = error as? ScenarioError else { return false }
      return error.position.line == line && error.position.column == column
        && error.message.contains(says) && "\(error)".hasPrefix("bad.yaml:\(line):\(column):")
    }
  }

  @Test("a run is deterministic: the same scenario gives the same event stream")
  func deterministic() async throws {
    let entry = try #require(BuiltInScenarios.named("orphan-anonymous-then-known"))
    let first = try await ScenarioRunner.run(try BuiltInScenarios.scenario(entry))
    let second = try await ScenarioRunner.run(try BuiltInScenarios.scenario(entry))
    #expect(first.events.map(\.jsonLine) == second.events.map(\.jsonLine))
  }

  @Test("the event stream: one JSON object a line, t and type first, DESIGN.md's fields")
  func jsonStream() async throws {
    let yaml = """
      name: stream
      steps:
        - { at: 0s, do: ["server fail 503 times 1", launch] }
        - { at: 1m, expect: "sent == 1" }
        - { at: 2m, do: tag add a }
        - { at: 130s, do: tag add b }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "s.yaml"))
    // An edit says since when its own change waits, not the window's opening (that is the
    // scheduled event's): the second tag's is its own time.
    let edits = report.events.filter { $0.type == "edited" }.compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.jsonLine.utf8)) as? [String: Any])?[
        "pendingSince"] as? Double
    }
    #expect(edits == [0, 120, 130])
    for event in report.events {
      let line = event.jsonLine
      #expect(line.hasPrefix("{\"t\":"))
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["type"] as? String == event.type)
      switch event.type {
      case "sending", "sent":
        #expect(object["payload"] is [String: Any] && object["attempt"] is Int)
      case "failed":
        #expect(object["retryAt"] as? Double == 60)
        #expect(object["status"] as? Int == 503)
      case "scheduled":
        #expect(object["at"] is Double && object["reason"] is String)
      default: break
      }
    }
    #expect(report.events.map(\.type).contains("serverReceived"))
  }

  @Test("data never reaches the terminal raw: escapes in values are shown escaped")
  func escapedTimeline() async throws {
    let yaml = """
      name: hostile
      steps:
        - { at: 0s, do: [launch, "attr set NOTE \\"\\u001b[2Jgotcha\\""] }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "h.yaml"))
    let details = report.events.map(\.detail).joined(separator: "\n")
    #expect(details.contains("\\e[2Jgotcha"))
    #expect(!details.unicodeScalars.contains { $0.value == 0x1B })
  }
}

@Suite("the run summary")
struct SummaryTests {
  @Test("text from the scenario file is escaped in the summary; its own line breaks are kept")
  func escapedSummary() async throws {
    let yaml = """
      name: "evil\\e[2J"
      steps:
        - { at: 0s, do: launch }
        - { at: 1m, expect: "contactKey == \\"\\e]0;x\\"" }
      """
    let report = try await ScenarioRunner.run(try ScenarioParser.parse(yaml, source: "e.yaml"))
    let summary = TimelinePrinter.summary(report)
    #expect(!summary.unicodeScalars.contains { $0.value == 0x1B })
    #expect(summary.contains("evil\\e[2J"))
    #expect(summary.split(separator: "\n").count == 2)
  }
}
