import Foundation
import RegistrationCore
import Synchronization
import Testing

@testable import Scenarios

/// A demo's checks are read by marketers: each says in words what it proves (issue #42, 9).
@Suite("checks in words")
struct ExpectationSentenceTests {
  static func sentence(_ text: String) throws -> String? {
    try Expectation.parse(text).sentence
  }

  @Test("each form the built-ins use reads as a sentence")
  func forms() throws {
    let cases: [(String, String)] = [
      ("server.distinctContacts == 1", "the server holds 1 distinct contact"),
      ("server.orphanedContacts == 0", "the server holds no orphaned contacts"),
      ("server.madeUpContacts == 1", "the server holds 1 contact it invented"),
      ("server.pending == 1", "the server has 1 registration waiting for processing"),
      ("server.processed == 0", "processing accepted no registrations"),
      ("server.rejected == 1", "processing rejected 1 registration"),
      ("server.received == 4", "the server received 4 registrations"),
      ("sent == 2", "2 registrations sent"),
      ("failed == 11", "11 sends failed"),
      ("sendSkipped == 1", "1 send skipped: nothing had changed"),
      ("launched == 2", "2 app launches"),
      ("orphaned == 1", "1 contact orphaned"),
      ("delayed == 1", "1 registration held back until a contact key is set"),
      ("warnings.orphanRisk == 1", "1 warning that a contact will be orphaned"),
      ("warnings.orphanRisk == 0", "no warnings that a contact will be orphaned"),
      ("pending == 0", "no changes waiting to be sent"),
      ("attempt == 3", "3 failed tries in a row"),
      ("lastStatus == 201", "the last answer was 201"),
      ("lastStatus == none", "no answer from the server yet"),
      ("plan == idle", "nothing is left to send"),
      ("plan == sending", "a send is on the wire"),
      ("plan == delayed", "sending waits for a contact key"),
      ("nextSend == 70s", "the next send is due at 0:01:10"),
      ("nextSend == 122820", "the next send is due at 1d 10:07:00"),
      ("lastSent.subscriberKey == none", "the last registration carried no contact key"),
      (
        "lastSent.subscriberKey == user-42", "the last registration carried contact key \"user-42\""
      ),
      ("lastSent.tags has sports", "the last registration carried tag sports"),
      ("lastSent.tags lacks second", "the last registration did not carry tag second"),
      ("lastSent.attr.CODE == FREE99", "the last registration carried attribute CODE = \"FREE99\""),
      ("contactKey == \"a b\"", "the contact key is \"a b\""),
      ("attr.CODE == none", "attribute CODE is not set"),
      ("tags has early", "the device has tag early"),
      ("needsFix == false", "the SDK is not waiting for a fix"),
      ("sent >= 3", "at least 3 registrations sent"),
    ]
    for (text, words) in cases {
      #expect(try Self.sentence(text) == words, "\(text)")
    }
  }

  @Test("every check of every built-in scenario has words, and none is an expression")
  func builtIns() throws {
    for entry in BuiltInScenarios.all {
      let scenario = try BuiltInScenarios.scenario(entry)
      for check in scenario.steps.flatMap(\.checks) {
        let words = try #require(check.expectation.sentence, "\(entry.name): \(check.text)")
        #expect(
          words.firstMatch(of: /==|!=|>=|<=|\bserver\.|lastSent\.|\d{5,}/) == nil,
          "\(entry.name): \(check.text) reads \(words)")
      }
    }
  }

  @Test("a check with no words of its own says its step's caption")
  func fallsBackToTheStep() async throws {
    let yaml = """
      name: plain
      description: a check the words do not cover
      steps:
        - { at: 0s, do: launch }
        - { at: 1s, expect: ["plan == someday", "sent == 1"], say: "The phone is registered." }
      """
    let scenario = try ScenarioParser.parse(yaml, source: "plain.yaml")
    let report = try await ScenarioRunner.run(scenario)
    #expect(report.checks.map(\.sentence) == ["The phone is registered.", "1 registration sent"])
  }
}
