import QA
import RegistrationCore
import Scenarios
import Testing
import YAMLFiles

/// A few hundred bytes of aliases can expand (or hash as keys) without bound: RegScope's YAML
/// files refuse anchors and aliases before anything is composed.
@Suite("YAML anchors and aliases refused")
struct YAMLAliasTests {
  static let bomb = """
    a: &a [x, x, x, x, x, x, x, x, x]
    b: &b {*a : 1, *a : 2}
    c: &c {*b : 1, *b : 2}
    d: &d {*c : 1, *c : 2}
    name: bomb
    steps: []
    """

  @Test("an alias bomb with aliases as keys is refused at its first anchor, at once")
  func bomb() {
    let started = ContinuousClock.now
    #expect {
      _ = try ScenarioParser.parse(Self.bomb, source: "bomb.yaml")
    } throws: { error in
      "\(error)".hasPrefix("bomb.yaml:1:4:") && "\(error)".contains("anchor (&name)")
    }
    #expect {
      _ = try QAPlanParser.parse(Self.bomb, source: "bomb.yaml")
    } throws: { error in "\(error)".contains("not accepted in RegScope files") }
    #expect(ContinuousClock.now - started < .seconds(1))
  }

  @Test("a * or & inside text, in quotes or in a comment is no alias")
  func textIsText() {
    for yaml in [
      "say: a *b* c", "say: \"*quoted\"", "say: '&x'", "# *comment\nname: x", "x: a-*b",
      "do: [tag add a&b]",
    ] {
      #expect(YAMLAliases.firstUse(in: yaml) == nil, "\(yaml)")
    }
    for (yaml, line, column) in [
      ("x: *a", 1, 4), ("- &a 1\n- *a", 1, 3), ("[*a]", 1, 2), ("a:\n  *x : 1", 2, 3),
    ] {
      let use = YAMLAliases.firstUse(in: yaml)
      #expect(use?.line == line && use?.column == column, "\(yaml)")
    }
  }
}
