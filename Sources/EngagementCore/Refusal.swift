import RegistrationCore

/// Why the server refused a registration before accepting it (S1), and what to do about it:
/// the first thing a newcomer pointing a real app at RegScope needs to see.
public struct Refusal: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case unauthorized, invalidBody, missingField, unknownApp, bodyTooLarge
  }

  public var kind: Kind
  public var status: Int
  public var reason: String
  /// The body, when it was read and decoded: it names the device.
  public var payload: RegistrationPayload?

  public init(kind: Kind, status: Int, reason: String, payload: RegistrationPayload? = nil) {
    self.kind = kind
    self.status = status
    self.reason = reason
    self.payload = payload
  }

  /// What to do about it, in a few words.
  public var fix: String {
    switch kind {
    case .unauthorized, .unknownApp:
      "start RegScope with this app's id and token (regscope --config YOUR_FILE; regctl serve --app-id ID) or with --any-app"
    case .invalidBody, .missingField:
      "the SDK sends JSON with deviceID, etAppId and platform: is something else posting?"
    case .bodyTooLarge:
      "no SDK sends a registration this large: is something else posting?"
    }
  }

  /// "refused: the bearer token is not this app's; start with --config YOUR_FILE or --any-app"
  public var summary: String { "refused: \(reason); \(fix)" }

  /// A wrong token or app id is the setup's (RegScope's or the app's configuration); a body
  /// no SDK sends is the app's.
  public var severity: Finding.Severity {
    switch kind {
    case .unauthorized, .unknownApp: .warning
    case .invalidBody, .missingField, .bodyTooLarge: .violation
    }
  }

  public var finding: Finding {
    Finding(code: "refused", rule: "S1", message: summary, severity: severity)
  }
}
