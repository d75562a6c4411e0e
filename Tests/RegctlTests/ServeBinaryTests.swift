import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One raw HTTP/1.1 exchange over a socket, for what a URL client will not send: a body the
/// server refuses before reading it, `Connection: close`, a method of our choosing.
func rawExchange(port: Int, _ request: [UInt8]) -> String {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else { return "" }
  var timeout = timeval(tv_sec: 5, tv_usec: 0)
  setsockopt(
    descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  var answer: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    answer += chunk[0..<count]
  }
  return String(decoding: answer, as: UTF8.self)
}

/// `regctl serve` on a free port, as a user starts it (the token from the environment).
struct ServeProcess {
  static let token = "serve-test-token-0123456789"
  let process: InteractiveProcess
  let port: Int

  init() throws {
    setenv("REGSCOPE_ACCESS_TOKEN", Self.token, 1)
    process = try InteractiveProcess(try regctlURL(), ["serve", "--app-id", "app", "--port", "0"])
    let line = process.readLine { $0.hasPrefix("listening on ") } ?? ""
    port = Int(line.split(separator: ":").last ?? "") ?? 0
  }

  var openDescriptors: Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")
      .count) ?? -1
  }

  func request(_ head: String, body: [UInt8] = []) -> String {
    rawExchange(port: port, Array(head.utf8) + body)
  }

  func stop() {
    process.terminate()
    _ = process.finish()
  }
}

@Suite("regctl serve, as a client on loopback sees it", .serialized)
struct ServeBinaryTests {
  @Test("one hostile fault request no longer kills the server; it answers 400 and goes on")
  func hugeFault() throws {
    let serve = try ServeProcess()
    #expect(serve.port > 0)
    let body = #"{"status":429,"retryAfter":1e20,"times":1}"#
    let answer = serve.request(
      "POST /api/faults HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    )
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
    #expect(answer.contains("retryAfter"))
    let stats = serve.request("GET /api/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(stats.hasPrefix("HTTP/1.1 200"), "\(stats)")
    serve.stop()
  }

  @Test("405 with Allow for a known path asked with another method")
  func methodNotAllowed() throws {
    let serve = try ServeProcess()
    let answer = serve.request("PATCH /api/faults HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
    #expect(answer.lowercased().contains("allow: post, delete"))
    serve.stop()
  }

  @Test("oversize uploads with Connection: close get their answer and leave no socket open")
  func noDescriptorLeak() async throws {
    let serve = try ServeProcess()
    let baseline = serve.openDescriptors
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 2 * 1024 * 1024)
    for authorization in ["Authorization: Bearer \(ServeProcess.token)\r\n", ""] {
      for _ in 0..<15 {
        let answer = serve.request(
          "POST /device/v1/registration HTTP/1.1\r\nHost: x\r\n\(authorization)"
            + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n",
          body: body)
        #expect(answer.hasPrefix("HTTP/1.1 413") || answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
      }
    }
    // The server closes each socket a second after answering (time for the client to read
    // the answer); that happens in another process, with nothing to await: poll, bounded.
    var open = serve.openDescriptors
    for _ in 0..<100 where open > baseline {
      try await Task.sleep(for: .milliseconds(50))
      open = serve.openDescriptors
    }
    #expect(open <= baseline, "\(baseline) descriptors before, \(open) after 30 uploads")
    serve.stop()
  }
}
