import Foundation
import RegistrationCore
import SystemCalls

/// Where a bundle may be written, and the writing: by RegScope's one writer (a private
/// temporary beside it, renamed over it), never through a symbolic link, never over an
/// existing file without `force`, never over a store, a store's side file or a capture that a
/// RegScope is writing, whatever `force` says.
public enum BundleTarget {
  /// Why `path` may not take a bundle, or nil. `protected` are files of the running receiver
  /// (its `--db`, its `--har`), refused by name and by identity.
  public static func problem(_ path: String, force: Bool, protected: [String] = []) -> String? {
    let shown = TerminalText.escaped(path)
    for suffix in ["-journal", "-wal", "-shm"] where path.hasSuffix(suffix) {
      return
        "\(shown): a name ending in \(suffix) is an SQLite store's side file; give the bundle another name"
    }
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    for kept in protected
    where URL(fileURLWithPath: kept).standardizedFileURL.path == standardized
      || SystemCalls.sameFile(kept, path)
    {
      return
        "\(shown) is the running receiver's own file (\(TerminalText.escaped(kept))): a bundle never replaces it"
    }
    switch SystemCalls.pathKind(path) {
    case .missing: return nil
    case .symbolicLink:
      return
        "\(shown) is a symbolic link: a bundle is never written through one (name the file itself)"
    case .directory:
      return "\(shown) is a directory: name the bundle's file (for example \(shown)/ticket.zip)"
    case .other: return "\(shown) is not a regular file"
    case .regular: break
    }
    if SystemCalls.isLockedForWriting(path) {
      return "\(shown) is a capture a RegScope is writing now (--har): a bundle never replaces it"
    }
    if SystemCalls.readHead(path, count: 16) == Array("SQLite format 3\0".utf8) {
      return "\(shown) is an SQLite database (a receiver's --db store?): a bundle never replaces it"
    }
    return force ? nil : "\(shown) exists: give --force to replace it, or another name"
  }

  /// Writes the zip, after `problem` found none.
  public static func write(_ bytes: [UInt8], to path: String, force: Bool, protected: [String] = [])
    throws(BundleError)
  {
    if let problem = problem(path, force: force, protected: protected) {
      throw BundleError(.target, problem)
    }
    if let reason = SystemCalls.replaceFile(path, with: bytes) {
      throw BundleError(.target, "\(TerminalText.escaped(path)) cannot be written (\(reason))")
    }
  }
}
