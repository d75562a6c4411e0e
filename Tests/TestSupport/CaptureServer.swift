import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback HTTP server that takes requests exactly as a client wrote them (method, path,
/// every header in order, the body) and answers each with `status` and `body`. For golden
/// requests: what a shipped SDK's server would see.
public final class CaptureServer: Sendable {
  public struct Request: Sendable {
    public var method: String
    public var path: String
    /// In the order and spelling they arrived.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
      headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
  }

  public let port: Int
  private let listener: Int32
  private let received = Mutex<[Request]>([])
  /// Dribbled answers that could not be finished: the other side closed first.
  private let cut = NSCondition()
  nonisolated(unsafe) private var cutCount = 0  // guarded by `cut`: NSCondition is the lock

  /// What a scripted peer does with one request: answer at once, after a while, or dribble
  /// its answer a piece at a time (a hostile or broken tenant, for the relay's tests).
  public enum Reply: Sendable {
    case bytes([UInt8])
    case after(seconds: Double, [UInt8])
    case dribble(head: [UInt8], pieces: [[UInt8]], every: Double)

    /// A whole HTTP/1.1 answer with this status line (`"201 Created"`, `"000 Nothing"`).
    public static func answer(_ statusLine: String, body: String = "{}") -> Reply {
      .bytes(answerBytes(statusLine, body: body))
    }

    public static func answerBytes(_ statusLine: String, body: String = "{}") -> [UInt8] {
      Array(
        ("HTTP/1.1 \(statusLine)\r\nContent-Type: application/json\r\nContent-Length: "
          + "\(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8)
    }
  }

  /// - Parameter headers: extra answer headers, `Name: value` each.
  public convenience init(
    status: Int = 201, answer: String = #"{"received":true}"#, headers: [String] = []
  ) throws {
    let reply = Array(
      ("HTTP/1.1 \(status) Answer\r\nContent-Type: application/json\r\nContent-Length: "
        + "\(answer.utf8.count)\r\n" + headers.map { $0 + "\r\n" }.joined()
        + "Connection: close\r\n\r\n\(answer)").utf8)
    try self.init { _ in .bytes(reply) }
  }

  /// A peer that answers each request as `reply` says, each connection on a thread of its own.
  public init(reply: @escaping @Sendable (Request) -> Reply) throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, bound == 0, listen(descriptor, 512) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    listener = descriptor
    Thread { [self] in
      while true {
        let client = accept(descriptor, nil, nil)
        if client < 0 { return }
        Thread { [self] in
          defer { close(client) }
          guard let request = Self.read(client) else { return }
          received.withLock { $0.append(request) }
          switch reply(request) {
          case .bytes(let bytes):
            Self.write(bytes, to: client)
          case .after(let seconds, let bytes):
            // The peer itself is slow: this is the behaviour under test, not a test waiting.
            Thread.sleep(forTimeInterval: seconds)
            Self.write(bytes, to: client)
          case .dribble(let head, let pieces, let every):
            guard Self.write(head, to: client) else { return }
            for piece in pieces {
              Thread.sleep(forTimeInterval: every)
              guard Self.write(piece, to: client) else {
                cut.lock()
                cutCount += 1
                cut.broadcast()
                cut.unlock()
                return
              }
            }
          }
        }.start()
      }
    }.start()
  }

  @discardableResult
  private static func write(_ bytes: [UInt8], to client: Int32) -> Bool {
    bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      == bytes.count
  }

  public var requests: [Request] { received.withLock { $0 } }

  /// Waits, up to `seconds`, until `count` dribbled answers were cut short by the other side;
  /// whether they were. Blocks: call it off the cooperative pool.
  public func waitForCutAnswers(_ count: Int, seconds: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    cut.lock()
    defer { cut.unlock() }
    while cutCount < count {
      if !cut.wait(until: deadline) { return cutCount >= count }
    }
    return true
  }

  public func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private static func read(_ client: Int32) -> Request? {
    var limit = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var headEnd: Int?
    var expected = Int.max
    while bytes.count < expected {
      let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      bytes += chunk[0..<count]
      if headEnd == nil, let end = find(Array("\r\n\r\n".utf8), in: bytes) {
        headEnd = end + 4
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let length =
          head.split(separator: "\r\n").first {
            $0.lowercased().hasPrefix("content-length:")
          }.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        expected = end + 4 + length
      }
    }
    guard let headEnd else { return nil }
    let lines = String(decoding: bytes[..<(headEnd - 4)], as: UTF8.self)
      .components(separatedBy: "\r\n")
    let start = lines[0].split(separator: " ")
    guard start.count >= 2 else { return nil }
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      )
    }
    return Request(
      method: String(start[0]), path: String(start[1]), headers: headers,
      body: Array(bytes[headEnd...]))
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count)
    where haystack[index..<(index + needle.count)].elementsEqual(needle) {
      return index
    }
    return nil
  }
}
