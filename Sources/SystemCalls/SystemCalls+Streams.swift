#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing a stream (a pipe, a terminal) whole, for a tool that speaks a protocol
/// on its standard input and output (`regctl mcp`). Blocking: call them off the cooperative
/// pool, or where holding a thread is what is wanted.
extension SystemCalls {
  public static let standardInput: Int32 = STDIN_FILENO
  public static let standardOutput: Int32 = STDOUT_FILENO

  /// Reads what has come, waiting for some: the count, 0 at the end, -1 on an error. A signal
  /// is no end, and a descriptor left non-blocking by whoever started us is waited on, not
  /// spun on.
  public static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> Int
  {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: wait(descriptor, for: POLLIN)
      default: return -1
      }
    }
  }

  /// Writes `bytes` whole; false when the descriptor will take no more (the reader is gone).
  public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var done = 0
    while done < bytes.count {
      let count = write(descriptor, base + done, bytes.count - done)
      if count > 0 {
        done += count
      } else if count < 0 && errno == EINTR {
        continue
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        wait(descriptor, for: POLLOUT)
      } else {
        return false
      }
    }
    return true
  }

  /// Where `byte` first stands in `bytes` (memchr: a line reader looks at each byte once).
  public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, bytes.count > 0,
      let found = memchr(base, Int32(byte), bytes.count)
    else { return nil }
    return UnsafeRawPointer(found) - base
  }

  private static func wait(_ descriptor: Int32, for events: Int32) {
    var wanted = pollfd(fd: descriptor, events: Int16(events), revents: 0)
    _ = poll(&wanted, 1, -1)
  }
}
