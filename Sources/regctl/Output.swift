import ArgumentParser
import Foundation
import RegistrationCore

/// Everything regctl writes passes through here, one line at a time through
/// `TerminalText.escaped`: text from data (scenario files, attribute values, server answers,
/// paths) never reaches the terminal as raw control or escape sequences.
enum Output {
  /// A line for live commands (shell, serve): written at once, so a pipe or a log reader sees
  /// each event when it happens rather than when a buffer fills.
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((safe(text) + "\n").utf8))
  }

  /// A line of a report (run, scenarios), through the standard output's buffer.
  static func report(_ text: String) {
    print(safe(text))
  }

  static func error(_ text: String) {
    FileHandle.standardError.write(Data((safe(text) + "\n").utf8))
  }

  static func safe(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
  }
}

extension RegCtl {
  /// ArgumentParser's own `main`, with every message it prints (errors that quote a path, a
  /// flag's value, a configuration name) escaped the same way.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if !message.isEmpty {
        if code == .success { Output.report(message) } else { Output.error(message) }
      }
      Foundation.exit(code.rawValue)
    }
  }
}
