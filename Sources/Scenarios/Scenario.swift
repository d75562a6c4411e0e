import RegistrationCore
import Session
import SessionValues
import YAMLFiles

/// A scripted run in virtual time (DESIGN.md, "Scenario files").
public struct Scenario: Sendable {
  public var name: String
  public var description: String
  public var setup: SessionSetup
  public var steps: [ScenarioStep]
  /// Where it came from: a path, or `built-in:NAME`.
  public var source: String
}

public struct ScenarioStep: Sendable {
  public struct Action: Sendable {
    public var command: Command
    public var text: String
    public var position: SourcePosition
  }

  public struct Check: Sendable {
    public var expectation: Expectation
    public var text: String
    public var position: SourcePosition
  }

  /// 1-based, in file order.
  public var number: Int
  public var at: Instant
  public var actions: [Action]
  public var checks: [Check]
  /// A caption for people watching (demo mode, the timeline): what this step means.
  public var say: String?
  public var position: SourcePosition
}

/// What is wrong in a scenario file, and where.
public typealias ScenarioError = SourceError
