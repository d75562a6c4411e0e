import RegistrationCore
import Session
import SessionValues

/// A place in a scenario file, for errors a person can act on.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }
}

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

/// A scenario file that cannot be run, and exactly where and why.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  public var position: SourcePosition
  public var message: String

  public init(_ position: SourcePosition, _ message: String) {
    self.position = position
    self.message = message
  }

  public var description: String { "\(position): \(message)" }
}
