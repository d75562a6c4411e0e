// Every call into the C library RegScope makes, in one module: the only one that imports
// Glibc (Linux, tested in CI) or Darwin (macOS, kept compiling but not tested in CI).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

public enum SystemCalls {
  // MARK: Errors

  /// The C library's words for an error number.
  public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The last call's error, in words.
  public static var lastErrorText: String { errorText(errno) }

  /// A network error number as a person reads it.
  public static func describeNetworkError(_ code: Int32) -> String {
    switch code {
    case ECONNREFUSED: "connection refused"
    case ENETUNREACH: "no network connection"
    case EHOSTUNREACH: "host unreachable"
    case ECONNRESET, EPIPE: "the connection was dropped"
    case ETIMEDOUT: "timed out"
    default: "network error \(code): \(errorText(code))"
    }
  }

  /// Why a server could not listen, as a person reads it, with what to do.
  public static func describeListenError(_ code: Int32) -> String {
    switch code {
    case EADDRINUSE:
      "the port is in use: is another receiver running? --port 0 takes a free one"
    case EADDRNOTAVAIL: "this machine has no such address (--listen)"
    case EACCES: "permission denied: a port below 1024 needs root; take a higher one"
    default: errorText(code)
    }
  }

  // MARK: Files

  /// Opens `path` read-write, creating it with mode 0600 so it is private from its first byte,
  /// and closes it again. Nil when that worked, else the reason.
  public static func createPrivateFile(_ path: String) -> String? {
    let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return lastErrorText }
    close(descriptor)
    return nil
  }

  /// Writes `bytes` to `path` so that a reader (or a crash) sees the old file or the new one,
  /// never half of either: a private (0600) file made by `mkstemp` beside it (no fixed name, so
  /// nothing planted there is followed or overwritten), synced, then renamed over it. A device
  /// or a pipe at `path` (`/dev/null`, or `/dev/stdout`, a link to one) is written in place,
  /// never replaced. Nil when that worked, else the reason.
  public static func replaceFile(_ path: String, with bytes: [UInt8]) -> String? {
    var status = stat()
    // What the path leads to: /dev/stdout is a link, and the link must not be replaced.
    if stat(path, &status) == 0,
      (status.st_mode & S_IFMT) == S_IFCHR
        || (status.st_mode & S_IFMT) == S_IFIFO
    {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return lastErrorText }
      defer { close(descriptor) }
      return writeAll(descriptor, bytes)
    }
    var template = Array((path + ".XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return lastErrorText }
    let temporary = String(cString: template)
    fchmod(descriptor, 0o600)
    if let reason = writeAll(descriptor, bytes) {
      close(descriptor)
      unlink(temporary)
      return reason
    }
    guard fsync(descriptor) == 0 || errno == EINVAL else {
      let reason = lastErrorText
      close(descriptor)
      unlink(temporary)
      return reason
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let reason = lastErrorText
      unlink(temporary)
      return reason
    }
    return nil
  }

  /// Writes `bytes` into the regular file at `path` from `offset` on, and ends the file there:
  /// how a capture appends over its own tail. The file is opened without following a link.
  /// Nil when that worked, else the reason.
  public static func writeFile(_ path: String, bytes: [UInt8], at offset: Int) -> String? {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return lastErrorText }
    defer { close(descriptor) }
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { return lastErrorText }
    if let reason = writeAll(descriptor, bytes) { return reason }
    guard ftruncate(descriptor, off_t(offset + bytes.count)) == 0 else { return lastErrorText }
    return nil
  }

  /// Starts this very program again with `name=value` added to its environment, unless it is
  /// set already (an empty value counts as unset); returns only when it is set, or when the
  /// program cannot be started again. For a setting the runtime reads once, at start
  /// (SWIFT_BACKTRACE).
  public static func restartWith(environment name: String, value: String) {
    if let current = getenv(name), current.pointee != 0 { return }
    setenv(name, value, 1)
    #if os(Linux)
      let argv = CommandLine.arguments.map { strdup($0) } + [nil]
      execv("/proc/self/exe", argv)
      // Still here: exec failed; go on as we are.
      for pointer in argv { free(pointer) }
    #endif
  }

  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> String? {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return count == 0 ? "nothing could be written" : lastErrorText }
      written += count
    }
    return nil
  }

  /// An advisory lock held for as long as the writer lives, so a second RegScope writing the
  /// same file is refused instead of overwriting it: `flock` on `path`.lock (made 0600, not
  /// following a link). Returns the descriptor that holds it, or the reason it is not held.
  public static func lockForWriting(_ path: String) -> Result<Int32, Failure> {
    let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { return .failure(Failure(description: lastErrorText)) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let busy = errno == EWOULDBLOCK
      let reason = lastErrorText
      close(descriptor)
      return .failure(
        Failure(description: busy ? "another RegScope is writing it" : reason))
    }
    return .success(descriptor)
  }

  /// Gives up a lock from `lockForWriting` and removes its file.
  public static func unlock(_ descriptor: Int32, path: String) {
    unlink(path + ".lock")
    close(descriptor)
  }

  /// Whether two paths name one file (the same device and inode); false when either is
  /// missing.
  public static func sameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }

  /// Sends standard error to the end of `path` (created 0600). Returns the descriptor that
  /// restores it, or nil when the file cannot be opened.
  public static func redirectStandardError(appendingTo path: String) -> Int32? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    let saved = dup(2)
    dup2(descriptor, 2)
    close(descriptor)
    return saved
  }

  public static func restoreStandardError(_ saved: Int32) {
    dup2(saved, 2)
    close(saved)
  }

  public struct FileInfo: Sendable {
    public enum Kind: Sendable { case regular, directory, other }
    public var kind: Kind
    public var size: Int64
  }

  /// What `path` is and how large, or why it cannot be looked at.
  public static func fileInfo(_ path: String) -> Result<FileInfo, Failure> {
    var status = stat()
    guard stat(path, &status) == 0 else { return .failure(Failure(description: lastErrorText)) }
    let kind: FileInfo.Kind =
      switch status.st_mode & S_IFMT {
      case S_IFREG: .regular
      case S_IFDIR: .directory
      default: .other
      }
    return .success(FileInfo(kind: kind, size: Int64(status.st_size)))
  }

  /// A file under /proc/self (Linux); nil elsewhere, or when it cannot be read. /proc files say
  /// they are empty, so this reads to the end rather than by size.
  public static func readProcSelf(_ name: String) -> [UInt8]? {
    #if os(Linux)
      let descriptor = open("/proc/self/\(name)", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += chunk[0..<count]
      }
      return bytes
    #else
      return nil
    #endif
  }

  /// True when `descriptor` is a terminal (a person watching), not a pipe or a file.
  public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }
}
