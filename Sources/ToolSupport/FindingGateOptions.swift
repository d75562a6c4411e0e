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

  /// The gate; a bad value is said (as `tool`'s error) and exits 2, like any bad input.
  public func gate(tool: String) throws -> FindingGate {
    switch FindingGate.parse(failOn: failOn, allow: allow) {
    case .failure(let problem):
      Output.error("\(tool): \(problem)")
      throw ExitCode(2)
    case .success(let gate): return gate
    }
  }
}
