import ArgumentParser
import Foundation

/// The options of a live session, shared by `regscope` and `regctl shell`: where its state
/// lives, which configuration and server, how fast time runs, which SDK to be.
public struct SessionOptions: ParsableArguments {
  @Option(help: "State folder (default: $XDG_STATE_HOME/regscope).")
  public var state: String?

  @Option(
    help:
      "The app's SDK configuration file (R7.1), as it is: the iOS SDK's MarketingCloudSDKConfiguration.json, a Cordova config.xml or an Expo app.json."
  )
  public var config: String?

  @Option(help: "Which configuration of --config to use, when the file has more than one.")
  public var configName: String?

  @Option(help: "Send registrations to this server instead of the local one.")
  public var server: String?

  @Option(help: "Clock speed: 1 is real time (the default), 60 a minute per second.")
  public var speed: Double?

  @OptionGroup public var sdk: SDKOption

  @Flag(help: "Move the stored state aside and start afresh.")
  public var resetState = false

  public init() {}

  public func validate() throws {
    if let speed, !(speed > 0 && speed <= 1_000_000) {
      throw ValidationError("--speed must be above 0 and at most 1000000")
    }
    if configName != nil && config == nil {
      throw ValidationError("--config-name needs --config")
    }
    // Checked here as the engine checks its server (an http(s) URL with a host), so a wrong
    // value is a wrong option (exit 64), said before anything starts.
    if let server {
      let trimmed = server.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased()),
        url.host?.isEmpty == false
      else {
        throw ValidationError(
          "--server must be an http:// or https:// URL with a host, like https://mc.example.com; got \"\(server)\""
        )
      }
    }
  }
}
