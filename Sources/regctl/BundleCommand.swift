import ArgumentParser
import DebugBundle
import Foundation
import OutboundHTTP
import RegistrationCore
import SystemCalls
import ToolSupport

/// `regctl bundle -o FILE`: one zip for a ticket (#54), from a running receiver, from files, or
/// both.
struct BundleCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundle",
    abstract: "Write a debug bundle: one zip with the verdict and the traffic, for a ticket.",
    discussion: """
      From a running receiver (--receiver URL: regctl serve, regscope --receive), all its \
      devices or one (--device ID), read through its API: each device's entry, timeline, \
      findings, field stories and explanation, its requests and answers as one HAR 1.2 \
      capture, the settings that shaped the verdict. From files (--har, --state-dump, \
      --qa-report, each repeatable), judged as regctl judge does. README.md says the ticket \
      in words; manifest.json lists each file with its size and SHA-256.

      Tokens, secrets and X-Subscriber-Token are always masked. --redact replaces contact \
      keys, device ids, push tokens and attribute values with keyed hashes (HMAC-SHA256 under \
      a random key that is not kept). A bundle holds at most 64 MiB. An existing file is \
      replaced only with --force; a symbolic link, an SQLite store or a capture being written \
      never. regscope --open FILE and regctl judge FILE read it back. See docs/bundle.md.

      Exit status: 0 written, 1 the bundle was refused (its size, the output path) or could \
      not be written, 2 an input could not be read (the receiver, a file).
      """)

  @Option(name: .shortAndLong, help: "The bundle to write (a .zip file).")
  var output: String

  @Option(
    help: "A running receiver to read (regctl serve, regscope --receive): http://127.0.0.1:8080.")
  var receiver: String?

  @Option(help: "With --receiver: only this device (default: every device it holds).")
  var device: String?

  @Option(help: "A capture (HAR 1.2) to judge and put in the bundle; repeat for more.")
  var har: [String] = []

  @Option(
    help: "An SDK state dump (getSdkState, logSdkState) to put in the bundle; repeat for more.")
  var stateDump: [String] = []

  @Option(help: "A QA report (Markdown, JUnit, JSON) to put in the bundle; repeat for more.")
  var qaReport: [String] = []

  @Option(
    help:
      "With --har: the demographics table the capture is judged with, comma-separated (default: every attribute accepted)."
  )
  var definedAttributes: String?

  @Flag(
    help:
      "Replace contact keys, device ids, push tokens and attribute values with keyed hashes (equal values stay equal inside the bundle)."
  )
  var redact = false

  @Flag(help: "Replace the output file when it exists (never a link, a store or a live capture).")
  var force = false

  @Option(help: "The app's access token, masked wherever it stands (prefer --access-token-file).")
  var accessToken: String?

  @Option(help: "Read the app's access token from this file (its first line).")
  var accessTokenFile: String?

  @Option(help: "How long the receiver has for each whole answer: 10s, 1m.")
  var receiverDeadline = "10s"

  func validate() throws {
    if receiver == nil && har.isEmpty && stateDump.isEmpty && qaReport.isEmpty {
      throw ValidationError(
        "nothing to bundle: give --receiver URL (a running receiver), or files (--har, --state-dump, --qa-report)"
      )
    }
    if device != nil && receiver == nil { throw ValidationError("--device goes with --receiver") }
    if let receiver, OutboundHTTP.Target(url: receiver) == nil {
      throw ValidationError(
        "--receiver must be an http:// or https:// URL, like http://127.0.0.1:8080; got \"\(TerminalText.escaped(receiver))\""
      )
    }
    guard let seconds = DurationText.seconds(receiverDeadline), seconds > 0 else {
      throw ValidationError("--receiver-deadline must be a duration longer than 0 s, like 10s")
    }
  }

  func run() async throws {
    // Refused before anything is read: an output that cannot take the bundle wastes no work.
    if let problem = BundleTarget.problem(output, force: force) {
      Output.error("regctl bundle: -o \(problem)")
      throw ExitCode(1)
    }
    var material = BundleMaterial(
      origin: receiver.map { "the receiver at \($0)" } ?? "files",
      secrets: try knownToken().map { [$0] } ?? [])
    do {
      if let receiver {
        let reader = ReceiverReader(
          url: receiver, deadline: DurationText.seconds(receiverDeadline) ?? 10)
        try await reader.gather(into: &material, device: device)
      }
      try BundleInputs.add(
        har: har, stateDumps: stateDump, qaReports: qaReport,
        definedAttributes: definedAttributes, to: &material)
    } catch {
      Output.error("regctl bundle: \(error)")
      throw ExitCode(error.kind == .tooLarge ? 1 : 2)
    }
    let made: MadeBundle
    do {
      made = try BundleMaker.make(material, redact: redact)
      try BundleTarget.write(made.zip, to: output, force: force)
    } catch {
      Output.error("regctl bundle: \(error)")
      throw ExitCode(error.kind == .input ? 2 : 1)
    }
    Output.line(
      "\(TerminalText.escaped(output)): \(made.deviceCount) device\(made.deviceCount == 1 ? "" : "s"), \(made.files.count) files, \(NumberText.grouped(made.zip.count)) bytes; tokens masked\(made.redacted ? ", contact keys, device ids, push tokens and attribute values redacted" : "")"
    )
    for gap in material.gaps { Output.line("  not in it: \(TerminalText.escaped(gap))") }
    Output.line(
      "  reopen: regscope --open \(TerminalText.escaped(output)); regctl judge \(TerminalText.escaped(output))"
    )
  }

  /// The app's token, when given: masked in the bundle wherever it stands.
  private func knownToken() throws -> String? {
    guard
      accessToken != nil || accessTokenFile != nil
        || ProcessInfo.processInfo.environment["REGSCOPE_ACCESS_TOKEN"] != nil
    else { return nil }
    var credentials = AppCredentials()
    credentials.accessToken = accessToken
    credentials.accessTokenFile = accessTokenFile
    return try credentials.resolvedAccessToken()
  }
}
