import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Random bytes from the system's source, asked for 4 KB at a time: the standard library's
/// generator makes a system call for every eight bytes, and the local server mints a
/// subscriber token for every new device of a fleet. Each byte is handed out once; the pool
/// never repeats or derives bytes.
public enum RandomPool {
  private static let size = 4_096
  private static let pool = Mutex<(bytes: [UInt8], used: Int)>(([], 0))

  public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
    pool.withLock { pool in
      for index in buffer.indices {
        if pool.used == pool.bytes.count {
          pool.bytes = fresh()
          pool.used = 0
        }
        buffer[index] = pool.bytes[pool.used]
        pool.used += 1
      }
    }
  }

  private static func fresh() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: size)
    bytes.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      #if canImport(Glibc)
        // /dev/urandom: the same source as getrandom(2) once the system has booted, which
        // Swift's Glibc module does not declare.
        var filled = 0
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
          defer { close(descriptor) }
          while filled < raw.count {
            let count = read(descriptor, base + filled, raw.count - filled)
            if count > 0 {
              filled += count
            } else if !(count < 0 && errno == EINTR) {
              break
            }
          }
        }
        if filled < raw.count {
          // Not readable (a sandbox without /dev): the standard library's source.
          var generator = SystemRandomNumberGenerator()
          for index in filled..<raw.count { raw[index] = generator.next() }
        }
      #else
        arc4random_buf(base, raw.count)
      #endif
    }
    return bytes
  }
}
