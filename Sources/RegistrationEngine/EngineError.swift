public enum EngineError: Error, Hashable, Sendable, CustomStringConvertible {
  case notLaunched
  case shutDown

  public var description: String {
    switch self {
    case .notLaunched: "the engine has not been launched yet"
    case .shutDown: "the engine was shut down (restarted); use the new one"
    }
  }
}

/// Identifies a registration listener so it can be removed (R5.1, R5.2).
public struct ListenerID: Hashable, Sendable {
  let value: Int
}
