import Foundation

/// Lines for live commands (shell, serve): written at once, so a pipe or a log reader sees
/// each event when it happens rather than when a buffer fills.
enum Output {
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
