// Every call into the C library RegScope makes, in one place: the only file that imports
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

  // MARK: Waking a thread

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// A pipe whose ends never block and are closed on exec: one byte in it wakes a poll().
  public static func makeWakePipe() throws(Failure) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw Failure(description: lastErrorText) }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    return (fds[0], fds[1])
  }

  public static func writeByte(to descriptor: Int32) {
    var byte: UInt8 = 1
    _ = write(descriptor, &byte, 1)
  }

  /// Reads whatever is waiting, without blocking.
  public static func drain(_ descriptor: Int32) {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(descriptor, &bytes, bytes.count) > 0 {}
  }

  public static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
      _ = Darwin.close(descriptor)
    #endif
  }

  /// What a wait for input found.
  public struct Ready: Sendable {
    /// Standard input has bytes to read.
    public var input = false
    /// Standard input hung up or failed.
    public var inputLost = false
    /// The wake pipe was written to.
    public var wake = false
  }

  /// Waits until standard input or `wake` is ready, or `milliseconds` pass (-1: no limit).
  /// An interrupted wait is no error: it reads as nothing ready.
  public static func waitForInput(orWake wake: Int32, milliseconds: Int32)
    -> Result<Ready, Failure>
  {
    var fds = [
      pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    if poll(&fds, 2, milliseconds) < 0 {
      if errno == EINTR { return .success(Ready()) }
      return .failure(Failure(description: lastErrorText))
    }
    return .success(
      Ready(
        input: fds[0].revents & Int16(POLLIN) != 0,
        inputLost: fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0,
        wake: fds[1].revents != 0))
  }

  /// Why standard input is closed (EOF) or failing (EIO), or nil when it is a live terminal.
  /// For when poll() said it was readable but no key came of it.
  public static func standardInputEnded() -> String? {
    // A read the terminal refuses (EIO: a background process, a hung-up line) fails even
    // for no bytes, while the bytes it holds are still counted below.
    var byte: UInt8 = 0
    if read(0, &byte, 0) < 0 && errno != EAGAIN && errno != EINTR {
      return "reading the terminal failed: \(lastErrorText)"
    }
    var waiting: Int32 = 0
    if ioctl(0, UInt(FIONREAD), &waiting) < 0 {
      return errno == ENOTTY
        ? "standard input is not a terminal, and it has ended"
        : "reading the terminal failed: \(lastErrorText)"
    }
    return waiting == 0 ? "the terminal closed its input" : nil
  }

  // MARK: Signals

  /// The signals the tools handle themselves.
  public enum Signal: Sendable, CaseIterable {
    case interrupt, terminate, hangUp, windowChanged

    public var number: Int32 {
      switch self {
      case .interrupt: SIGINT
      case .terminate: SIGTERM
      case .hangUp: SIGHUP
      case .windowChanged: SIGWINCH
      }
    }
  }

  /// Turns off the signal's default action, so a dispatch source can handle it instead.
  public static func takeOver(_ signal: Signal) -> Int32 {
    #if canImport(Glibc)
      _ = Glibc.signal(signal.number, SIG_IGN)
    #elseif canImport(Darwin)
      _ = Darwin.signal(signal.number, SIG_IGN)
    #endif
    return signal.number
  }

  // MARK: Memory, time, cores

  /// Drops the pages of a clean, file-backed mapping; they come back on their next touch.
  public static func dropPages(start: UInt64, length: Int) -> Bool {
    guard let address = UnsafeMutableRawPointer(bitPattern: UInt(start)) else { return false }
    #if os(Linux)
      return madvise(address, length, MADV_DONTNEED) == 0
    #else
      return madvise(address, length, MADV_FREE) == 0
    #endif
  }

  /// The local time zone's offset from UTC at `seconds` since the epoch. From the C library:
  /// Foundation's TimeZone would load ICU's tables for each call.
  public static func localOffsetFromUTC(atEpochSeconds seconds: Double) -> Int {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    guard localtime_r(&time, &parts) != nil else { return 0 }
    return Int(parts.tm_gmtoff)
  }

  public static var onlineCores: Int {
    #if canImport(Glibc)
      max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
      max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
    #endif
  }

  // MARK: Sockets

  /// Binds `host:port` (IPv4) without listening: the kernel refuses connections to it, and it
  /// stays ours until closed. Nil when it cannot be bound.
  public static func holdPort(host: String, port: Int) -> Int32? {
    #if canImport(Glibc)
      let stream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let descriptor = socket(AF_INET, stream, 0)
    guard descriptor >= 0 else { return nil }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = ipv4(host: host, port: port)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// True when a connection to `host:port` (IPv4) is accepted now.
  public static func connects(host: String, port: Int) -> Bool {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = ipv4(host: host, port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  private static func ipv4(host: String, port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    return address
  }
}
