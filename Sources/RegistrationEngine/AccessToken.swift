import RegistrationCore

/// The app's access token. It prints masked everywhere (description, debug description,
/// `dump`, string interpolation); only the Authorization header reads it whole.
public struct AccessToken: Hashable, Sendable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  private let value: String

  public init(_ value: String) { self.value = value }

  /// The whole token, for the `Authorization: Bearer` header and nothing else.
  public var revealed: String { value }

  public var isEmpty: Bool { value.isEmpty }

  /// The first four characters and the length: enough to tell two tokens apart.
  public var masked: String { TokenText.masked(value) }

  public var description: String { masked }
  public var debugDescription: String { "AccessToken(\(masked))" }
  public var customMirror: Mirror { Mirror(self, children: ["masked": masked]) }
}
