// Every call into the C library RegScope makes, in one module: the only one that imports
// Glibc (Linux, tested in CI) or Darwin (macOS, kept compiling but not tested in CI).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waking the UI thread, signals, memory, time, cores and sockets.
extension SystemCalls {
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
