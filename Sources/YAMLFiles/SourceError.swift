/// A place in a file a person wrote (a scenario, a QA plan), for errors they can act on.
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

/// What is wrong in such a file, and where: `file:line:column: message`.
public struct SourceError: Error, Hashable, Sendable, CustomStringConvertible {
  public var position: SourcePosition
  public var message: String

  public init(_ position: SourcePosition, _ message: String) {
    self.position = position
    self.message = message
  }

  public var description: String { "\(position): \(message)" }
}
