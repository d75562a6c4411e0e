import RegistrationCore

/// Why the server refused a registration before accepting it (S1), and what to do about it:
/// the first thing a newcomer pointing a real app at RegScope needs to see.
public struct Refusal: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case unauthorized, invalidBody, missingField, unknownApp, bodyTooLarge
  }

  /// Where the refusal was seen, for advice that fits: a receiver started with an app's id
  /// and token, one adopting the first app (`--any-app`), or the tenant in a capture.
  public enum Setting: Hashable, Sendable {
    case fixedApp, anyApp, capture
  }

  public var kind: Kind
  public var setting: Setting = .fixedApp
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
    switch (kind, setting) {
    case (.unauthorized, .capture), (.unknownApp, .capture):
      "the tenant refused the app's credentials: check the app id, access token and server URL the app is configured with"
    case (.unauthorized, .anyApp), (.unknownApp, .anyApp):
      "this receiver adopted the first app that registered (--any-app); is a second app or an old build posting? Restart it to adopt another"
    case (.unauthorized, _):
      "give the app the access token this receiver started with (its start line shows it, masked when it is your own), or start RegScope with the app's own (--app-id ID --access-token-file FILE, or --config YOUR_FILE), or with --any-app"
    case (.unknownApp, _):
      "start RegScope with this app's id and token (--app-id ID --access-token-file FILE, or --config YOUR_FILE), or with --any-app"
    case (.invalidBody, _), (.missingField, _):
      "the SDK sends JSON with deviceID, etAppId and platform: is something else posting?"
    case (.bodyTooLarge, _):
      "no SDK sends a registration this large: is something else posting?"
    }
  }

  /// "refused: the bearer token is not this app's; start with --config YOUR_FILE or --any-app"
  public var summary: String { "refused: \(reason); fix: \(fix)" }

  /// A wrong token or app id is the setup's (RegScope's or the app's configuration); a body
  /// no SDK sends is the app's.
  public var severity: Finding.Severity {
    switch kind {
    case .unauthorized, .unknownApp: .warning
    case .invalidBody, .missingField, .bodyTooLarge: .violation
    }
  }

  /// A wrong token or app id: the setup's to fix, not something the app did wrong
  /// (`DeviceWatch.Device.forgiveSetupRefusals`).
  public var isSetups: Bool { kind == .unauthorized || kind == .unknownApp }

  public var finding: Finding {
    Finding(
      code: .refused, rule: "S1", message: "refused: \(reason)", severity: severity, fix: fix)
  }
}
