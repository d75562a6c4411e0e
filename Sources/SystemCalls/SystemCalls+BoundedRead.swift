#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// Why a file handed to RegScope was not read: said as the end of "FILE ...".
  public enum ReadRefusal: Error, Sendable, CustomStringConvertible, Equatable {
    /// It cannot be opened or read (no such file, no permission): the system's words.
    case unreadable(String)
    case directory
    /// A pipe, a device (`/dev/zero`), a socket: read whole, it may never end.
    case notRegular
    /// Larger than the limit the caller gave (its size, the limit).
    case tooLarge(Int64, Int)

    public var description: String {
      switch self {
      case .unreadable(let why): "cannot be read (\(why))"
      case .directory: "is a directory, not a file"
      case .notRegular: "is not a regular file (a pipe, a device or a socket)"
      case .tooLarge(let size, let limit): "is \(size) bytes; at most \(limit) are read"
      }
    }
  }

  /// A regular file's bytes, refused before a byte is read when it is not a regular file or
  /// is larger than `limit`: a user may hand any path (a FIFO, /dev/zero, a 1 GB file), and
  /// reading it whole first would hang or hold gigabytes. Opened once and checked through the
  /// open descriptor, so the file checked is the file read; read up to `limit` + 1 bytes, so
  /// a file that grows meanwhile is still refused.
  public static func readFile(_ path: String, atMost limit: Int) -> Result<[UInt8], ReadRefusal> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return .failure(.unreadable(lastErrorText)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(lastErrorText)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return .failure(.directory)
    default: return .failure(.notRegular)
    }
    guard Int64(status.st_size) <= Int64(limit) else {
      return .failure(.tooLarge(Int64(status.st_size), limit))
    }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        guard bytes.count <= limit else {
          return .failure(.tooLarge(Int64(bytes.count), limit))
        }
        bytes += [UInt8](repeating: 0, count: min(limit + 1 - bytes.count, 65_536))
      }
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return .failure(.unreadable(lastErrorText)) }
      if count == 0 { break }
      filled += count
    }
    guard filled <= limit else { return .failure(.tooLarge(Int64(filled), limit)) }
    return .success(Array(bytes[0..<filled]))
  }
}
