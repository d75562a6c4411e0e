import RegistrationCore

/// The addresses that keep a server to this machine: what `--listen` defaults to, and what
/// `--any-app` requires.
public enum Loopback {
  public static let names: Set<String> = ["127.0.0.1", "localhost", "::1"]

  public static func contains(_ host: String) -> Bool { names.contains(host) }

  /// Why `--any-app` cannot go with `host`, or nil when it can.
  public static func anyAppProblem(host: String) -> String? {
    contains(host)
      ? nil
      : "--any-app works on loopback only: with --listen \(TerminalText.escaped(host)) anyone on the network could become the app; give the app's own id and token instead"
  }
}
