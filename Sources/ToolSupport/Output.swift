import Foundation
import RegistrationCore
import SystemCalls

/// Everything the command-line tools write outside the curses screen passes through here, one
/// line at a time through `TerminalText.escaped`: text from data (scenario files, attribute
/// values, server answers, paths, configuration names) never reaches the terminal as raw
/// control or escape sequences.
public enum Output {
  /// A line for live commands (shell, serve): written at once, so a pipe or a log reader sees
  /// each event when it happens rather than when a buffer fills.
  public static func line(_ text: String) {
    write(safe(text) + "\n", to: .standardOutput, named: "standard output")
  }

  /// A line of a report (run, scenarios). Written at once and checked like `line`: a report
  /// that cannot be written is an error, never a silent success.
  public static func report(_ text: String) {
    write(safe(text) + "\n", to: .standardOutput, named: "standard output")
  }

  /// A line of `--json` output: one JSON value, compact (no line break outside its strings),
  /// written at once and checked like `line`. Made safe for a terminal the JSON way: each
  /// character `TerminalText` would show escaped (a control, a bidirectional override, an
  /// invisible format character, a pile of combining marks) can only stand inside a string,
  /// and is written there as `\uXXXX`, so the line stays JSON a reader parses to the same
  /// value (`TerminalText`'s `\x9B` would not be JSON).
  public static func jsonLine(_ json: String) {
    write(jsonSafe(json) + "\n", to: .standardOutput, named: "standard output")
  }

  public static func jsonSafe(_ json: String) -> String {
    var marks = 0
    let hidden = { (scalar: Unicode.Scalar) -> Bool in
      marks = TerminalText.isCombining(scalar) ? marks + 1 : 0
      return TerminalText.hidden(scalar) || marks > TerminalText.combiningLimit
    }
    guard json.unicodeScalars.contains(where: hidden) else { return json }
    marks = 0
    var output = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard hidden(scalar) else {
        output.append(scalar)
        continue
      }
      for unit in String(scalar).utf16 {
        let hex = String(unit, radix: 16)
        output.append(
          contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      }
    }
    return String(output)
  }

  public static func error(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data((safe(text) + "\n").utf8))
  }

  /// Writes or, when the write fails (a full disk, `/dev/full`, a closed pipe), says so on
  /// standard error and exits 1: output that was lost must not look like success.
  static func write(_ text: String, to handle: FileHandle, named name: String) {
    do {
      try handle.write(contentsOf: Data(text.utf8))
    } catch {
      let tool = URL(fileURLWithPath: CommandLine.arguments.first ?? "regctl").lastPathComponent
      Output.error("\(tool): cannot write to \(name): \(OutputFile.reason(error))")
      exit(1)
    }
  }

  public static func safe(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
  }
}

/// A file a command writes (a CSV, an SVG, a HAR): whole or not at all, and every failure an
/// error that names the file.
public enum OutputFile {
  /// Writes `text` to `path` through RegScope's one writer (`SystemCalls.replaceFile`): a
  /// regular file is replaced atomically from a `mkstemp` temporary beside it (a reader never
  /// sees half of it, nothing planted is followed); a device or a pipe (`/dev/stdout`,
  /// `/dev/full`) is written in place, never replaced; a failed write throws.
  public static func write(_ text: String, to path: String) throws(OutputFileError) {
    if let problem = SystemCalls.replaceFile(path, with: Array(text.utf8)) {
      throw OutputFileError(path: path, reason: problem)
    }
  }

  /// The system's words for a failed write ("No space left on device").
  static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      posix.domain == NSPOSIXErrorDomain
    {
      return SystemCalls.errorText(Int32(posix.code))
    }
    if nsError.domain == NSPOSIXErrorDomain {
      return SystemCalls.errorText(Int32(nsError.code))
    }
    return nsError.localizedDescription
  }
}

public struct OutputFileError: Error, CustomStringConvertible {
  public var path: String
  public var reason: String
  public var description: String { "\(TerminalText.escaped(path)): cannot be written (\(reason))" }
}
