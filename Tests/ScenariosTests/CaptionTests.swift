import Foundation
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Synchronization
import Testing

@Suite("narrated scenarios (say:)")
struct CaptionTests {
  @Test("a step's caption comes before its commands in the timeline and in JSON")
  func timeline() async throws {
    let yaml = """
      name: narrated
      description: captions
      steps:
        - { at: 0s, do: launch, say: "The app starts." }
        - { at: 10m, say: "Nothing happens for ten minutes." }
      """
    let scenario = try ScenarioParser.parse(yaml, source: "n.yaml")
    #expect(scenario.steps.map(\.say) == ["The app starts.", "Nothing happens for ten minutes."])
    let items = Mutex<[TimelineItem]>([])
    _ = try await ScenarioRunner.run(scenario) { item in items.withLock { $0.append(item) } }
    let text = items.withLock { $0 }.compactMap { TimelinePrinter.line($0, json: false) }
    let caption = try #require(text.firstIndex { $0.contains("# The app starts.") })
    let launch = try #require(text.firstIndex { $0.contains("> launch") })
    #expect(caption < launch)
    #expect(text.contains { $0.hasPrefix("0:10:00") && $0.contains("# Nothing happens") })
    let json = items.withLock { $0 }.compactMap { TimelinePrinter.line($0, json: true) }
    #expect(json.contains(#"{"t":0.0,"type":"say","say":"The app starts."}"#))
  }

  @Test("an empty caption, or one with a list, is an error that says where")
  func refused() {
    for (yaml, says) in [
      ("- { at: 0s, say: \"  \" }", "say: needs a caption"),
      ("- { at: 0s, say: [a, b] }", "say must be a single value"),
    ] {
      #expect {
        _ = try ScenarioParser.parse("name: x\ndescription: y\nsteps:\n  " + yaml, source: "c.yaml")
      } throws: { error in
        "\(error)".contains(says) && "\(error)".contains("c.yaml:4")
      }
    }
  }

  @Test("the built-in strategy and orphan scenarios carry captions a marketer understands")
  func builtIns() throws {
    for name in [
      "orphan-anonymous-then-known", "orphan-shared-device", "strategy-anonymous-only",
      "strategy-known-only", "strategy-both",
    ] {
      let entry = try #require(BuiltInScenarios.named(name))
      let scenario = try BuiltInScenarios.scenario(entry)
      #expect(
        scenario.steps.contains {
          $0.say?.contains("billing") == true || $0.say?.contains("billed") == true
            || $0.say?.contains("reached") == true
        }, "\(name)")
    }
  }
}
