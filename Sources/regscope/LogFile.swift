import Foundation
import Session
import SessionValues

#if canImport(Glibc)
  import Glibc
#endif

/// Standard error sent to a file (0600) while the screen belongs to curses, so no message from
/// a library lands on it; restored afterwards.
struct LogFile {
  let saved: Int32

  static func redirectStandardError(to path: String) throws -> LogFile {
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
    let saved = dup(2)
    dup2(descriptor, 2)
    close(descriptor)
    return LogFile(saved: saved)
  }

  func restore() {
    dup2(saved, 2)
    close(saved)
  }
}
