import Foundation
import RegistrationCore

/// Everything the command-line tools write outside the curses screen passes through here, one
/// line at a time through `TerminalText.escaped`: text from data (scenario files, attribute
/// values, server answers, paths, configuration names) never reaches the terminal as raw
/// control or escape sequences.
public enum Output {
  /// A line for live commands (shell, serve): written at once, so a pipe or a log reader sees
  /// each event when it happens rather than when a buffer fills.
  public static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((safe(text) + "\n").utf8))
  }

  /// A line of a report (run, scenarios), through the standard output's buffer.
  public static func report(_ text: String) {
    print(safe(text))
  }

  public static func error(_ text: String) {
    FileHandle.standardError.write(Data((safe(text) + "\n").utf8))
  }

  public static func safe(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
  }
}
