import ArgumentParser
import RegistrationCore

/// `--sdk documented|ios|android`, shared by `regscope`, `regctl run` and `regctl shell`.
public struct SDKOption: ParsableArguments {
  @Option(
    name: .customLong("sdk"),
    help: ArgumentHelp(
      "Which SDK to be: documented (the seeds' contract), ios or android (the shipped SDKs; the newest read, 10.0, or a version: android@8.2.1, ios@9.0.0).",
      valueName: SDKProfile.choices))
  public var name: String?

  public init() {}

  /// The chosen profile, or nil when `--sdk` was not given.
  public var profile: SDKProfile? { name.flatMap(SDKProfile.init(loose:)) }

  public func validate() throws {
    guard let name, SDKProfile(loose: name) == nil else { return }
    throw ValidationError("--sdk \(SDKProfile.refusal(loose: name))")
  }
}
