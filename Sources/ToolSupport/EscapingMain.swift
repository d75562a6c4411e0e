import ArgumentParser
import Foundation

extension AsyncParsableCommand {
  /// ArgumentParser's own `main`, with every message it prints (errors that quote a path, a
  /// flag's value, a configuration name) escaped by `Output`.
  public static func mainEscapingMessages() async {
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
