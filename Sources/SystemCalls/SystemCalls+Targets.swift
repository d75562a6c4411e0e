#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an output path is before RegScope writes over it (a debug bundle, #54): a link is
/// never written through, a capture another RegScope is writing never replaced.
extension SystemCalls {
  public enum PathKind: Sendable, Equatable {
    case missing
    case symbolicLink
    case directory
    case regular
    /// A device, a pipe, a socket.
    case other
  }

  /// What `path` is itself, a link not followed (`lstat`).
  public static func pathKind(_ path: String) -> PathKind {
    var status = stat()
    guard lstat(path, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFLNK: return .symbolicLink
    case S_IFDIR: return .directory
    case S_IFREG: return .regular
    default: return .other
    }
  }

  /// The first `count` bytes of a regular file (fewer when it is shorter), not following a
  /// link; nil when it cannot be opened.
  public static func readHead(_ path: String, count: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    let read = bytes.withUnsafeMutableBytes { readSome(descriptor, into: $0) }
    guard read >= 0 else { return nil }
    return Array(bytes.prefix(read))
  }

  /// Whether another process holds `lockForWriting`'s lock on `path` now (a `--har` capture
  /// being written): its `.lock` file locked, tried without waiting.
  public static func isLockedForWriting(_ path: String) -> Bool {
    let descriptor = open(path + ".lock", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(descriptor, LOCK_UN)
    return false
  }
}
