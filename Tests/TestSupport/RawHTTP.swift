import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One raw HTTP/1.1 exchange over a socket, for what a URL client will not send: a body the
/// server refuses before reading it, `Connection: close`, a method of our choosing. Sending and
/// receiving each give up after `timeout` seconds, and the whole runs off the cooperative pool.
/// Returns the bytes received until the server closed (an empty string if it could not connect).
/// `halfClose` shuts the sending side once the request is sent, as `nc -N` does.
public func rawExchange(
  port: Int, _ request: [UInt8], timeout: Int = HangGuard.seconds, halfClose: Bool = false
) async throws -> String {
  try await offThePool {
    blockingExchange(port: port, request, timeout: timeout, halfClose: halfClose).answer
  }
}

/// The same, and whether it was the server that ended the connection (end of file) rather
/// than the receive time-out: for the server's own time limits.
public func rawExchangeEnding(port: Int, _ request: [UInt8], timeout: Int) async throws
  -> (answer: String, closedByServer: Bool)
{
  try await offThePool { blockingExchange(port: port, request, timeout: timeout) }
}

private func blockingExchange(
  port: Int, _ request: [UInt8], timeout: Int, halfClose: Bool = false
) -> (
  answer: String, closedByServer: Bool
) {
  guard let descriptor = connectedLoopback(port: port, timeout: timeout) else { return ("", false) }
  defer { close(descriptor) }
  // The server may answer and stop reading long before the body is sent: a failed or timed-out
  // send ends the sending, and whatever answer arrived is still read.
  var sent = 0
  while sent < request.count {
    let count = request.withUnsafeBytes {
      send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
    }
    if count <= 0 { break }
    sent += count
  }
  if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
  var answer: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  var closed = false
  while true {
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 {
      closed = count == 0 || errno == ECONNRESET
      break
    }
    answer += chunk[0..<count]
  }
  return (String(decoding: answer, as: UTF8.self), closed)
}

/// One raw request and its first whole answer (its head, and as much body as its
/// Content-Length says), without waiting for the server to close: for a connection the server
/// keeps open. Gives what arrived when the server closes or `timeout` seconds pass first.
public func rawFirstAnswer(port: Int, _ request: [UInt8], timeout: Int = HangGuard.seconds)
  async throws -> String
{
  try await offThePool {
    guard let client = LoopbackClient(port: port) else { return "" }
    client.send(String(decoding: request, as: UTF8.self))
    return client.receiveAnswer(timeout: timeout)
  }
}

/// A port nothing listens on now (bound to 0 by the kernel, then released), for a server a
/// test starts on it next.
public func freeLoopbackPort() -> Int? {
  guard let (descriptor, port) = boundLoopbackSocket() else { return nil }
  close(descriptor)
  return port
}

/// A loopback port that refuses every connection for as long as this lives: bound, never
/// listening, so no other test or test run can take it. A port merely released could be a
/// server's by the time it is asked (two test runs at once once answered 503 there).
public final class RefusingPort: Sendable {
  public let port: Int
  private let descriptor: Int32

  public init?() {
    guard let (descriptor, port) = boundLoopbackSocket() else { return nil }
    self.descriptor = descriptor
    self.port = port
  }

  deinit { close(descriptor) }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks, and that port.
private func boundLoopbackSocket() -> (Int32, Int)? {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { return nil }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
    }
  }
  guard bound else {
    close(descriptor)
    return nil
  }
  return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A blocking loopback client for tests that must look at the socket between sending and
/// reading: `receiveWaiting` reads only what has already arrived, without waiting.
public final class LoopbackClient: Sendable {
  private let descriptor: Int32

  public init?(port: Int) {
    guard let descriptor = connectedLoopback(port: port, timeout: nil) else { return nil }
    self.descriptor = descriptor
  }

  public func send(_ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      if count <= 0 { return }
      sent += count
    }
  }

  /// What the server has already sent, read without waiting for more.
  public func receiveWaiting() -> String {
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      if count <= 0 { break }
      answer += chunk.prefix(count)
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// What the server sends until it closes the connection, or until nothing more has come for
  /// `timeout` seconds (blocking: call it off the pool). `closed`: the server closed it.
  public func receiveUntilClosed(timeout: Int = HangGuard.seconds) -> (answer: String, closed: Bool)
  {
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while poll(&waiting, 1, Int32(timeout * 1000)) > 0 {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return (String(decoding: answer, as: UTF8.self), true) }
      answer += chunk.prefix(count)
    }
    return (String(decoding: answer, as: UTF8.self), false)
  }

  /// One whole answer (head, and the body its Content-Length gives), or what arrived before
  /// the server closed or nothing more came for `timeout` seconds (blocking: off the pool).
  public func receiveAnswer(timeout: Int = HangGuard.seconds) -> String {
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while !Self.isWhole(answer), poll(&waiting, 1, Int32(timeout * 1000)) > 0 {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      answer += chunk.prefix(count)
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// Whether `bytes` hold a head and the body its Content-Length announces.
  static func isWhole(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    let length =
      text[..<end.lowerBound].split(separator: "\r\n").first {
        $0.lowercased().hasPrefix("content-length:")
      }.flatMap { Int($0.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)) }
      ?? 0
    return text[end.upperBound...].utf8.count >= length
  }

  deinit { close(descriptor) }
}

/// A socket connected to `port` on loopback, sending and receiving each giving up after
/// `timeout` seconds (never, when nil); nil if it could not connect.
private func connectedLoopback(port: Int, timeout: Int?) -> Int32? {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { return nil }
  if let timeout {
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
      setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
  }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(descriptor)
    return nil
  }
  return descriptor
}
