import RegistrationCore
import Session

/// The addresses that keep a server to this machine: what `--listen` defaults to, and what
/// `--any-app` and the demo app's public token require.
public enum Loopback {
  public static let names: Set<String> = ["127.0.0.1", "localhost", "::1"]

  /// Whether `host` keeps a server to this machine, read as every loopback decision reads a
  /// host (`LoopbackHost`): 127.x.y.z as four decimal numbers, `localhost` or `::1`, written
  /// exactly. Anything else, a name or an address written oddly (`127.1`, `0x7f000001`)
  /// included, may let the network in.
  public static func contains(_ host: String) -> Bool { LoopbackHost.contains(host) }

  /// Why `--any-app` cannot go with `host`, or nil when it can.
  public static func anyAppProblem(host: String) -> String? {
    contains(host)
      ? nil
      : "--any-app works on loopback only (--listen 127.0.0.1, localhost or ::1, written so): with --listen \(TerminalText.escaped(host)) anyone on the network could become the app; give the app's own id and token instead"
  }

  /// Why a receiver with `token` cannot listen on `host`, or nil when it can: the demo app's
  /// token is printed at every start and in the docs, so off loopback anyone could register,
  /// inject faults and define demographics with it, however it was given (the default, a
  /// flag, the environment, a token file, a configuration file). The one check every tool
  /// that listens makes.
  public static func publicTokenProblem(token: String, host: String, from source: String)
    -> String?
  {
    guard !contains(host), InputRules.trimmed(token) == SessionSetup().accessToken else {
      return nil
    }
    return
      "--listen \(TerminalText.escaped(host)) lets the network in (loopback is 127.0.0.1, localhost or ::1, written so), and the demo app's token (from \(source)) is public: give your app's own (--app-id ID --access-token-file FILE, or --config FILE)"
  }
}
