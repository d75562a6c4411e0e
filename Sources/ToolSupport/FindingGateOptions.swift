import ArgumentParser
import EngagementCore

/// `--fail-on` and `--allow`, spelled the same in `regctl judge` and `regctl qa`.
public struct FindingGateOptions: ParsableArguments {
  @Option(help: "The lowest severity that fails: violation (the default), warning or never.")
  public var failOn: String = "violation"

  @Option(
    help: ArgumentHelp(
      "Finding codes that never fail (repeat, or separate with commas), e.g. contactKeyChanged.",
      valueName: "code"))
  public var allow: [String] = []

  public init() {}

  /// A bad value is a wrong option: refused before the command starts, exit 64, as every
  /// other option's.
  public func validate() throws {
    if case .failure(let problem) = FindingGate.parse(failOn: failOn, allow: allow) {
      throw ValidationError("\(problem)")
    }
  }

  /// The gate (the values were checked by `validate`).
  public func gate() throws -> FindingGate {
    try FindingGate.parse(failOn: failOn, allow: allow).mapError { ValidationError("\($0)") }
      .get()
  }
}
