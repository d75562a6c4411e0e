import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues
import YAMLFiles
import Yams

/// Reads a scenario file (YAML). Every error names the file, line and column, and what was
/// expected; unknown keys suggest the nearest known one.
public enum ScenarioParser {
  public static func parse(file path: String) throws(ScenarioError) -> Scenario {
    try parse(YAMLText.read(path), source: path)
  }

  public static func parse(_ yaml: String, source: String) throws(ScenarioError) -> Scenario {
    let reader = YAMLReader(source: source)
    let root = try reader.compose(yaml, ifEmpty: "a scenario needs name and steps")
    return try reader.scenario(root)
  }

}

/// The scenario's own keys, read with the YAML reader scenarios and QA plans share.
extension YAMLReader {
  func scenario(_ root: Node) throws(ScenarioError) -> Scenario {
    let entries = try mapping(
      root, "the scenario", keys: ["name", "description", "config", "server", "device", "steps"])
    var name: String?
    var description = ""
    var setup = SessionSetup()
    var environment: [(SystemField, String, Node)] = []
    var stepsNode: Node?
    for (key, _, value) in entries {
      switch key {
      case "name": name = try string(value, "name")
      case "description": description = try string(value, "description")
      case "config": try config(value, into: &setup)
      case "server": try server(value, into: &setup)
      case "device":
        for (field, fieldNode, fieldValue) in try mapping(
          value, "device", keys: SystemField.allCases.map(\.rawValue))
        {
          guard let systemField = SystemField(rawValue: field) else { continue }
          environment.append((systemField, try string(fieldValue, field), fieldNode))
        }
      case "steps": stepsNode = value
      default: break
      }
    }
    guard let name, !name.isEmpty else {
      throw ScenarioError(position(root), "the scenario needs a name")
    }
    var env = DeviceEnvironment.demo(setup.platform, profile: setup.profile)
    for (field, raw, node) in environment {
      switch SystemFieldValue.parse(field, raw, platform: setup.platform) {
      case .success(let value): SystemFieldValue.write(value, to: &env)
      case .failure(let rejection):
        throw ScenarioError(position(node), "device \(field.rawValue): \(rejection.reason)")
      }
    }
    setup.environment = env
    guard let stepsNode else {
      throw ScenarioError(position(root), "the scenario needs steps")
    }
    return Scenario(
      name: name, description: description, setup: setup, steps: try steps(stepsNode),
      source: source)
  }

  func config(_ node: Node, into setup: inout SessionSetup) throws(ScenarioError) {
    var platformNode: Node?
    for (key, _, value) in try mapping(
      node, "config",
      keys: [
        "platform", "delayRegistrationUntilContactKeyIsSet", "debug", "requestTimeout",
        "networkLatency", "sdk",
      ])
    {
      switch key {
      case "platform":
        platformNode = value
        let text = try string(value, "platform")
        guard let platform = Platform(loose: text) else {
          throw ScenarioError(position(value), "platform must be iOS or Android; got \"\(text)\"")
        }
        setup.platform = platform
      case "delayRegistrationUntilContactKeyIsSet":
        setup.delayRegistrationUntilContactKeyIsSet = try bool(value, key)
      case "debug": setup.debugBuild = try bool(value, key)
      case "sdk":
        let text = try string(value, "sdk")
        guard let profile = SDKProfile(loose: text) else {
          throw ScenarioError(position(value), "sdk \(SDKProfile.refusal(loose: text))")
        }
        setup.profile = profile
      case "requestTimeout":
        let seconds = try duration(value, key)
        let longest = RegistrationConfiguration.longestRequestTimeout
        guard seconds > 0, seconds <= longest else {
          throw ScenarioError(
            position(value),
            "requestTimeout must be above 0 and at most \(DurationText.describe(longest)); got \(DurationText.describe(seconds))"
          )
        }
        setup.requestTimeout = seconds
      case "networkLatency": setup.networkLatency = try duration(value, key)
      default: break
      }
    }
    // A shipped SDK runs on one platform: it sets the platform, and a different one is a
    // mistake worth naming.
    if let platform = setup.profile.platform {
      if let platformNode, platform != setup.platform {
        throw ScenarioError(
          position(platformNode),
          "sdk \(setup.profile.spelled) runs on \(platform.rawValue); platform says \(setup.platform.rawValue)"
        )
      }
      setup.platform = platform
    }
  }

  func server(_ node: Node, into setup: inout SessionSetup) throws(ScenarioError) {
    for (key, _, value) in try mapping(
      node, "server", keys: ["definedAttributes", "processingDelay"])
    {
      switch key {
      case "definedAttributes":
        setup.definedAttributes = Set(try strings(value, key).map(\.0))
      case "processingDelay": setup.processingDelay = try duration(value, key)
      default: break
      }
    }
  }

  func steps(_ node: Node) throws(ScenarioError) -> [ScenarioStep] {
    guard let sequence = node.sequence else {
      throw ScenarioError(position(node), "steps must be a list: - { at: 0s, do: launch }")
    }
    var steps: [ScenarioStep] = []
    var previous: (Double, Node)?
    for (index, item) in sequence.enumerated() {
      let number = index + 1
      var at: Double?
      var actions: [ScenarioStep.Action] = []
      var checks: [ScenarioStep.Check] = []
      var say: String?
      for (key, _, value) in try mapping(
        item, "step \(number)", keys: ["at", "do", "expect", "say"])
      {
        switch key {
        case "say":
          let text = InputRules.trimmed(try string(value, "say"))
          guard !text.isEmpty, text.count <= 500 else {
            throw ScenarioError(
              position(value), "step \(number): say: needs a caption of 1 to 500 characters")
          }
          say = text
        case "at": at = try duration(value, "at")
        case "do":
          for (text, textNode) in try strings(value, "do") {
            actions.append(
              ScenarioStep.Action(
                command: try command(text, textNode, step: number), text: text,
                position: offset(textNode, by: 1)))
          }
        case "expect":
          for (text, textNode) in try strings(value, "expect") {
            do {
              checks.append(
                ScenarioStep.Check(
                  expectation: try Expectation.parse(text), text: text,
                  position: offset(textNode, by: 1)))
            } catch {
              throw ScenarioError(
                offset(textNode, by: error.column), "step \(number): \(error.message)")
            }
          }
        default: break
        }
      }
      guard let at else {
        throw ScenarioError(
          position(item), "step \(number) needs at: (when it happens, e.g. 10s)")
      }
      if actions.isEmpty && checks.isEmpty && say == nil {
        throw ScenarioError(position(item), "step \(number) needs do:, expect: or say:")
      }
      if let (before, _) = previous, at < before {
        throw ScenarioError(
          position(item),
          "step \(number) is at \(DurationText.describe(at)), before step \(number - 1) at \(DurationText.describe(before)); steps go forward in time"
        )
      }
      previous = (at, item)
      steps.append(
        ScenarioStep(
          number: number, at: Instant(at), actions: actions, checks: checks, say: say,
          position: position(item)))
    }
    return steps
  }

  func command(_ text: String, _ node: Node, step: Int) throws(ScenarioError) -> Command {
    do {
      return try CommandParser.parse(text)
    } catch {
      throw ScenarioError(offset(node, by: error.column), "step \(step): \(error.message)")
    }
  }

  /// The position of a column inside a scalar, past an opening quote when there is one.
  func offset(_ node: Node, by column: Int) -> SourcePosition {
    var base = position(node)
    let quoted =
      node.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
    base.column += column - 1 + (quoted ? 1 : 0)
    return base
  }
}
