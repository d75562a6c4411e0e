import ArgumentParser
import Foundation
import RegistrationCore

/// The app a receiver accepts: its id and access token, spelled the same in `regctl serve`
/// and `regctl qa`. The token comes from --access-token-file or --access-token (one of them),
/// else from REGSCOPE_ACCESS_TOKEN.
public struct AppCredentials: ParsableArguments {
  @Option(name: .customLong("app-id"), help: "The app id (etAppId) registrations must carry.")
  public var appID: String?

  @Option(
    help: ArgumentHelp(
      "The access token clients must send as a bearer token.",
      discussion:
        "Visible to anyone who can list processes; prefer --access-token-file or REGSCOPE_ACCESS_TOKEN."
    ))
  public var accessToken: String?

  @Option(help: "Read the access token from this file (its first line).")
  public var accessTokenFile: String?

  public init() {}

  /// With `anyApp`, none of these may be given; without, the id and a token must be.
  public func validate(anyApp: Bool) throws {
    if anyApp {
      if appID != nil || accessToken != nil || accessTokenFile != nil {
        throw ValidationError("give --app-id and a token, or --any-app, not both")
      }
    } else {
      guard let appID else {
        throw ValidationError(
          "the server needs the app's id: --app-id ID (or --any-app to adopt the first registration's)"
        )
      }
      guard !InputRules.trimmed(appID).isEmpty else {
        throw ValidationError("--app-id may not be empty")
      }
      _ = try resolvedAccessToken()
    }
  }

  /// The token to require: the app's, or (with --any-app, until the first registration names
  /// the app) a random one nobody can guess.
  public func accessToken(anyApp: Bool) throws -> String {
    anyApp
      ? (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }.joined()
      : try resolvedAccessToken()
  }

  public var appIDOrAny: String { InputRules.trimmed(appID ?? "(any)") }

  /// `--access-token`, else `--access-token-file`, else `REGSCOPE_ACCESS_TOKEN`.
  public func resolvedAccessToken() throws -> String {
    if accessToken != nil && accessTokenFile != nil {
      throw ValidationError("give --access-token or --access-token-file, not both")
    }
    let token: String
    let source: String
    if let accessToken {
      (token, source) = (accessToken, "--access-token")
    } else if let path = accessTokenFile {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw ValidationError("--access-token-file \(path) cannot be read as UTF-8 text")
      }
      (token, source) = (
        String(text.split(separator: "\n").first ?? ""), "--access-token-file \(path)"
      )
    } else if let value = ProcessInfo.processInfo.environment["REGSCOPE_ACCESS_TOKEN"] {
      (token, source) = (value, "REGSCOPE_ACCESS_TOKEN")
    } else {
      throw ValidationError(
        "the server needs the app's access token: --access-token-file FILE, REGSCOPE_ACCESS_TOKEN, or --access-token"
      )
    }
    let trimmed = InputRules.trimmed(token)
    guard !trimmed.isEmpty else { throw ValidationError("\(source) gives an empty access token") }
    guard trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw ValidationError(
        "\(source): an access token is printable ASCII with no spaces (a bearer token, RFC 6750)")
    }
    return trimmed
  }
}
