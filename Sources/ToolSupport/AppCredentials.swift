import ArgumentParser
import EngagementCore
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SystemCalls

/// The app a receiver accepts and how its server processes, spelled the same in
/// `regctl serve`, `regctl qa` and `regscope --receive`. The token comes from
/// --access-token-file or --access-token (one of them), else from REGSCOPE_ACCESS_TOKEN; or
/// both id and token from the app's own configuration file (--config, which regscope takes with
/// its device options). With none of these, the public demo app.
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

  @Option(help: "How long processing takes after the 201 (S2): 90s, 5m, 2h.")
  public var processingDelay: String = "5m"

  @Option(help: "Comma-separated attribute names the demographics table defines (S5).")
  public var definedAttributes: String?

  public init() {}

  public func validate() throws {
    if case .failure(let problem) = DurationText.parse(processingDelay) {
      throw ValidationError("--processing-delay: \(problem)")
    }
  }

  /// True when any of these was given: they mean nothing without a receiver.
  public var given: Bool {
    appID != nil || accessToken != nil || accessTokenFile != nil || processingDelay != "5m"
      || definedAttributes != nil
  }

  /// The app the receiver accepts. `config` is the app's own configuration file and the name
  /// of the configuration in it (nil: the file's only one). Demo credentials never go beyond
  /// loopback: the token is public.
  public func receiverApp(
    config: (path: String, name: String?)?, receiver: ReceiverArguments, sdk: SDKProfile? = nil
  ) throws -> ReceiverApp {
    let defined = definedAttributes.map {
      Set($0.split(separator: ",").map { InputRules.trimmed(String($0)) }.filter { !$0.isEmpty })
    }
    let delay = DurationText.seconds(processingDelay) ?? 300
    let (appID, token, source, warnings) = try credentials(
      config: config, anyApp: receiver.anyApp, sdk: sdk)
    if let problem = Loopback.publicTokenProblem(
      token: token, host: receiver.listen, from: source.words)
    {
      throw ValidationError(problem)
    }
    return ReceiverApp(
      settings: ServerSettings(
        appID: appID, accessToken: token, processingDelay: delay, definedAttributes: defined),
      source: source, warnings: warnings)
  }

  /// The app's id and token, where they came from, and what its configuration file writes
  /// almost right (its startup warnings).
  private func credentials(
    config: (path: String, name: String?)?, anyApp: Bool, sdk: SDKProfile?
  ) throws -> (String, String, ReceiverApp.Source, [String]) {
    let explicit = appID != nil || accessToken != nil || accessTokenFile != nil
    if anyApp {
      if explicit || config != nil {
        throw ValidationError(
          "give the app (--app-id and a token, or --config) or --any-app, not both")
      }
      // Until the first registration names the app, a token nobody can guess.
      let token = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }
        .joined()
      return ("(any)", token, .anyApp, [])
    }
    if let config {
      if explicit { throw ValidationError("give --config or --app-id and a token, not both") }
      let loaded: RegistrationConfiguration
      do {
        loaded = try ConfigurationFile.load(path: config.path, name: config.name, sdk: sdk)
      } catch {
        throw ValidationError("\(error)")
      }
      return (
        loaded.appID, loaded.accessToken.revealed, .configFile(config.path),
        loaded.startupWarnings
      )
    }
    guard let appID else {
      if accessToken != nil || accessTokenFile != nil {
        throw ValidationError("a token goes with the app's id: add --app-id ID")
      }
      return (SessionSetup().appID, SessionSetup().accessToken, .demo, [])
    }
    guard !InputRules.trimmed(appID).isEmpty else {
      throw ValidationError("--app-id may not be empty")
    }
    return (InputRules.trimmed(appID), try resolvedAccessToken(), .given, [])
  }

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
      // A token is a line: a FIFO, a device or a large file is refused before it is read.
      let bytes: [UInt8]
      switch SystemCalls.readFile(path, atMost: 64 << 10) {
      case .success(let read): bytes = read
      case .failure(let refusal):
        throw ValidationError("--access-token-file \(TerminalText.escaped(path)) \(refusal)")
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ValidationError(
          "--access-token-file \(TerminalText.escaped(path)) cannot be read as UTF-8 text")
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

/// The app's own configuration file, for the receivers of `regctl` (regscope takes --config
/// with its device options).
public struct AppConfigFile: ParsableArguments {
  @Option(
    help:
      "The app's SDK configuration file (R7.1), as it is: the iOS SDK's MarketingCloudSDKConfiguration.json, a Cordova config.xml or an Expo app.json. Its app id and access token are the ones accepted."
  )
  public var config: String?

  @Option(help: "Which configuration of --config to use, when the file has more than one.")
  public var configName: String?

  public init() {}

  public func validate() throws {
    if configName != nil && config == nil {
      throw ValidationError("--config-name needs --config")
    }
  }

  /// The file and the configuration named in it (nil: the file's only one).
  public var chosen: (path: String, name: String?)? {
    config.map { (path: $0, name: configName) }
  }
}

/// The app a receiver accepts, and where it came from, for the line it prints at start.
public struct ReceiverApp: Sendable {
  public enum Source: Sendable, Equatable {
    /// No app given: the public demo app, whose id and token are printed whole.
    case demo
    case given
    case configFile(String)
    /// `--any-app`: the first registration's id and token are adopted.
    case anyApp

    /// Where the token came from, for an error about it.
    var words: String {
      switch self {
      case .demo: "the demo app"
      case .given: "the token given"
      case .configFile(let path): "--config \(TerminalText.escaped(path))"
      case .anyApp: "--any-app"
      }
    }
  }

  public var settings: ServerSettings
  public var source: Source
  /// What the app's configuration file writes almost right, to be shown at start.
  public var warnings: [String] = []

  public var anyApp: Bool { source == .anyApp }

  /// What the receiver accepts, in a line: the demo's token whole (it is public and the app
  /// must be given it), any other masked.
  public var described: String {
    switch source {
    case .anyApp:
      "app: any (--any-app): the first registration's app id and token are adopted"
    case .demo:
      "app \(settings.appID) with token \(settings.accessToken) (the demo app: configure your debug build with these, or start with your app's own: --app-id and --access-token-file, or --config)"
    case .given:
      "app \(TerminalText.escaped(settings.appID)), token \(AccessToken(settings.accessToken).masked)"
    case .configFile(let path):
      "app \(TerminalText.escaped(settings.appID)), token \(AccessToken(settings.accessToken).masked) (from \(TerminalText.escaped(path)))"
    }
  }

  /// The app in a few words, for a report: the id and where it came from (no token).
  public var brief: String {
    switch source {
    case .anyApp: "any app (--any-app)"
    case .demo: "the demo app \(settings.appID)"
    case .given: "app \(TerminalText.escaped(settings.appID))"
    case .configFile(let path):
      "app \(TerminalText.escaped(settings.appID)) (from \(TerminalText.escaped(path)))"
    }
  }

  /// The settings line: processing delay and demographics.
  public var processing: String {
    "processing delay \(DurationText.describe(settings.processingDelay)), demographics "
      + (settings.definedAttributes.map {
        $0.sorted().map { TerminalText.clipped($0) }.joined(separator: ",")
      }
        ?? "(none: every attribute accepted)")
  }
}
