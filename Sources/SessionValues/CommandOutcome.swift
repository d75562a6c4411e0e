import RegistrationCore

/// What a command did. Worded here once, for every face.
public enum CommandOutcome: Sendable {
  case done(String)
  /// The device launched: the `launched` event says so too.
  case launched
  case edit(EditOutcome)

  /// The whole outcome in words: the inspector's status line.
  public var text: String {
    switch self {
    case .done(let text): text
    case .launched: "launched"
    case .edit(.applied(let change, let warnings)):
      "applied: \(change.summary)"
        + (warnings.isEmpty ? "" : " (\(warnings.map(\.code.rawValue).joined(separator: ", ")))")
    case .edit(.unchanged(let reason)): "no change: \(reason)"
    case .edit(.rejected(let rejection)): "refused: \(rejection)"
    }
  }

  /// What the event stream leaves unsaid (edits and refusals are events already): what the
  /// shell and a scenario's timeline print.
  public var unsaid: String? {
    switch self {
    case .done, .launched, .edit(.unchanged): text
    case .edit(.applied), .edit(.rejected): nil
    }
  }

  public var isRefusal: Bool {
    if case .edit(.rejected) = self { return true }
    return false
  }
}

/// A command and what came of it, a thrown error included: what every face reports.
public struct CommandResult: Sendable {
  public var command: Command
  public var outcome: Result<CommandOutcome, any Error>

  public init(command: Command, outcome: Result<CommandOutcome, any Error>) {
    self.command = command
    self.outcome = outcome
  }

  public var text: String {
    switch outcome {
    case .success(let outcome): outcome.text
    case .failure(let error): "\(command): \(error)"
    }
  }

  public var isError: Bool {
    switch outcome {
    case .success(let outcome): outcome.isRefusal
    case .failure: true
    }
  }
}
