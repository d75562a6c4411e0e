import ArgumentParser
import Foundation
import RegistrationCore
import Session
import SystemCalls

/// How a receiver listens, spelled the same in `regctl serve` and `regscope --receive`.
public struct ReceiverArguments: ParsableArguments {
  @Option(help: "Port to listen on; 0 picks a free one.")
  public var port: Int = 8080

  @Option(
    name: [.customLong("listen"), .customLong("host")],
    help: ArgumentHelp(
      "Address to bind (default 127.0.0.1, which simulators and emulators reach).",
      discussion:
        "A LAN address lets a phone on the network in; anyone who can reach it can register, so it always needs your app's own access token, never the demo's.",
      valueName: "address"))
  public var listen: String = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "Relay every device request to this tenant (https://...) and its answers back.",
      discussion:
        "Injected faults still answer first. Each registration and the tenant's answer join the device's timeline; a tenant that cannot be reached is a 502 with the reason. Plain http only to this machine (127.0.0.1, localhost, [::1]): each request carries the app's access token."
    ))
  public var upstream: String?

  @Option(help: "Serve https with this certificate (PEM); needs --tls-key.")
  public var tlsCert: String?

  @Option(help: "The certificate's private key (PEM); needs --tls-cert.")
  public var tlsKey: String?

  @Flag(
    help: ArgumentHelp(
      "Adopt the app id and token of the first registration (loopback only).",
      discussion:
        "For a first try with an app whose configuration file is not at hand; the receiver says which app it adopted."
    ))
  public var anyApp = false

  @Option(
    help: ArgumentHelp(
      "Write every device request and answer to this HAR 1.2 file (tokens masked).",
      discussion:
        "Valid JSON after every write: each exchange appended a second after it ends, and when the receiver stops; at most 512 MB. Read it back with regctl judge.",
      valueName: "file"))
  public var har: String?

  @Option(
    name: .customLong("host-name"),
    help: ArgumentHelp(
      "A name the receiver answers to besides IP addresses and localhost (repeat for more).",
      discussion:
        "Requests whose Host is another name get 421: a web page could otherwise point a name at this machine and read or drive the receiver through a browser (DNS rebinding).",
      valueName: "name"))
  public var hostNames: [String] = []

  public init() {}

  public func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    if (tlsCert == nil) != (tlsKey == nil) {
      throw ValidationError("give --tls-cert and --tls-key together")
    }
    if anyApp, let problem = Loopback.anyAppProblem(host: listen) {
      throw ValidationError(problem)
    }
    if let har, let problem = Self.storeSideFileProblem(option: "--har", path: har) {
      throw ValidationError(problem)
    }
  }

  /// SQLite's side files of a store: its journal, write-ahead log and shared memory, which
  /// the next open of the store deletes or rewrites. An output given such a name would be
  /// lost: refused, whatever the store.
  public static let storeSideSuffixes = ["-journal", "-wal", "-shm"]

  /// Why `path` cannot be an output of `option`, or nil when it can.
  public static func storeSideFileProblem(option: String, path: String) -> String? {
    guard let suffix = storeSideSuffixes.first(where: { path.lowercased().hasSuffix($0) }) else {
      return nil
    }
    return
      "\(option) \(TerminalText.escaped(path)): a name ending in \(suffix) is an SQLite store's side file, which the store deletes when it opens: give the output another name"
  }

  /// True when any of these options was given: they mean nothing without a receiver.
  public var given: Bool {
    port != 8080 || listen != "127.0.0.1" || upstream != nil || tlsCert != nil || tlsKey != nil
      || anyApp || har != nil || !hostNames.isEmpty
  }

  /// Refuses two files of one run that are one file: `--har` over the `--db` store would turn
  /// the store into a capture, and two outputs on one path overwrite each other. `others`
  /// pairs an option's name with its path.
  public func checkDistinctFiles(_ others: [(option: String, path: String?)]) throws {
    let named = ([("--har", har)] + others).compactMap { entry in
      entry.1.map { (option: entry.0, path: $0) }
    }
    for output in named where output.option != "--db" {
      if let problem = Self.storeSideFileProblem(option: output.option, path: output.path) {
        throw ValidationError(problem)
      }
    }
    for (index, first) in named.enumerated() {
      for second in named.dropFirst(index + 1) {
        let same =
          URL(fileURLWithPath: first.path).standardizedFileURL.path
          == URL(fileURLWithPath: second.path).standardizedFileURL.path
          || SystemCalls.sameFile(first.path, second.path)
        if same {
          throw ValidationError(
            "\(first.option) and \(second.option) name one file (\(TerminalText.escaped(first.path))): give each its own"
          )
        }
      }
    }
  }

  /// True when the address lets more than this machine in.
  public var listensBeyondLoopback: Bool { !Loopback.contains(listen) }

  public var options: ReceiverOptions {
    ReceiverOptions(
      port: port, upstream: upstream, host: listen,
      tls: tlsCert.flatMap { cert in tlsKey.map { (cert, $0) } }, anyApp: anyApp, har: har,
      hostNames: hostNames)
  }

  /// The warning a receiver bound beyond loopback prints at start.
  public var exposureWarning: String? {
    listensBeyondLoopback
      ? "listening on \(TerminalText.escaped(listen)), not loopback: anyone who can reach it can register"
      : nil
  }
}
