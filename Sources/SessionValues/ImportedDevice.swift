import RegistrationCore

/// A device read from a shipped SDK's state dump, shown read-only: no engine runs, nothing is
/// sent. (Scenarios reads the dumps; the session only shows what was read.)
public struct ImportedDevice: Sendable {
  public var source: String
  public var profile: SDKProfile
  public var state: RegistrationState

  public init(source: String, profile: SDKProfile, state: RegistrationState) {
    self.source = source
    self.profile = profile
    self.state = state
  }
}
