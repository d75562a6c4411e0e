import Foundation
import Session
import SessionValues
import SystemCalls

/// Standard error sent to a file (0600) while the screen belongs to curses, so no message from
/// a library lands on it; restored afterwards.
struct LogFile {
  let saved: Int32

  static func redirectStandardError(to path: String) throws -> LogFile {
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    guard let saved = SystemCalls.redirectStandardError(appendingTo: path) else {
      throw CocoaError(.fileWriteNoPermission)
    }
    return LogFile(saved: saved)
  }

  func restore() {
    SystemCalls.restoreStandardError(saved)
  }
}
