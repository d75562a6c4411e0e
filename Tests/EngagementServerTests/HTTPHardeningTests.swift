import Foundation
import RegistrationCore
import Testing

@testable import EngagementServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// One raw HTTP/1.1 exchange over a socket, for what URLSession will not send: a body the
/// server refuses before reading, `Connection: close`, an exact set of headers.
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
  var flags: Int32 = 0
  #if os(Linux)
    flags = Int32(MSG_NOSIGNAL)
  #endif
  _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
  var answer: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    answer += chunk[0..<count]
  }
  return String(decoding: answer, as: UTF8.self)
}

func openDescriptors() -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

@Suite("the server under hostile requests: clear answers, no crash, no leak", .serialized)
struct HTTPHardeningTests {
  @Test("a huge Retry-After, status or count in a fault is a 400 naming the field, not a crash")
  func hugeFaultValues() async throws {
    let rig = try await LoopbackRig.start()
    for (body, field) in [
      (#"{"status":429,"retryAfter":1e20,"times":1}"#, "retryAfter"),
      (#"{"status":1e20}"#, "status"), (#"{"status":503,"times":1e20}"#, "times"),
      (#"{"status":503.5}"#, "status"), (#"{"mode":"down","seconds":1e300}"#, "seconds"),
    ] {
      let (status, answer) = try await rig.request("POST", "api/faults", body: Data(body.utf8))
      #expect(status == 400, "\(body)")
      #expect(answer["field"] as? String == field, "\(body): \(answer)")
    }
    #expect(try await rig.get("api/stats").0 == 200)
    await rig.stop()
  }

  @Test("S1 the bearer scheme in any case; the control routes need the token too")
  func authorization() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    let seed = Data(#"{"deviceID":"D1","etAppId":"\#(appID)","platform":"iOS"}"#.utf8)
    let (lower, _) = try await rig.request(
      "POST", "device/v1/registration", body: seed,
      headers: ["authorization": "bearer \(token)", "Content-Type": "application/json"])
    #expect(lower == 201)
    for (method, path) in [
      ("POST", "api/faults"), ("DELETE", "api/faults"), ("PUT", "api/demographics"),
    ] {
      let (status, answer) = try await rig.request(
        method, path, body: Data(#"{"status":503,"attributes":[]}"#.utf8), headers: [:])
      #expect(status == 401, "\(method) \(path)")
      #expect(answer["error"] as? String == "unauthorized")
    }
    let stats = try await rig.get("api/stats").1
    #expect(stats["fault"] == nil)
    #expect(stats["definedAttributes"] == nil)
    await rig.stop()
  }

  @Test("405 with Allow for a known path and another method; 404 for an unknown path")
  func methods() async throws {
    let rig = try await LoopbackRig.start()
    let port = try #require(rig.front.port)
    let answer = rawExchange(
      port: port, Array("PATCH /api/faults HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
    #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
    #expect(answer.lowercased().contains("allow: post, delete"))
    #expect(answer.contains("methodNotAllowed"))
    #expect(try await rig.request("DELETE", "api/stats").0 == 405)
    #expect(try await rig.get("api/nothing").0 == 404)
    await rig.stop()
  }

  @Test("the token is checked before the body: 10 MB without it is 401, with it 413")
  func tokenBeforeBody() async throws {
    let rig = try await LoopbackRig.start()
    let huge = Data(repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
    let (without, answer) = try await rig.request(
      "POST", "device/v1/registration", body: huge, headers: [:])
    #expect(without == 401 && answer["error"] as? String == "unauthorized")
    let (with, _) = try await rig.request("POST", "device/v1/registration", body: huge)
    #expect(with == 413)
    await rig.stop()
  }

  @Test("an oversize upload with Connection: close gets its answer and its socket is closed")
  func noDescriptorLeak() async throws {
    let rig = try await LoopbackRig.start()
    let port = try #require(rig.front.port)
    let baseline = openDescriptors()
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: 2 * 1024 * 1024)
    for authorization in ["Authorization: Bearer \(token)\r\n", ""] {
      for _ in 0..<10 {
        let head =
          "POST /device/v1/registration HTTP/1.1\r\nHost: x\r\n\(authorization)"
          + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        let answer = rawExchange(port: port, Array(head.utf8) + body)
        #expect(answer.hasPrefix("HTTP/1.1 413") || answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
      }
    }
    // The server closes each socket a second after answering (time for the client to read
    // the answer). Nothing to await in the process: poll, bounded.
    var open = openDescriptors()
    for _ in 0..<100 where open > baseline + 2 {
      try await Task.sleep(for: .milliseconds(50))
      open = openDescriptors()
    }
    #expect(open <= baseline + 2, "\(baseline) descriptors before, \(open) after 20 uploads")
    await rig.stop()
  }

  @Test("C1 and bidi controls in data come out of the API as \\u escapes")
  func apiEscapesControls() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    let body = Data(
      #"{"deviceID":"D\u009b1m","etAppId":"\#(appID)","platform":"iOS","tags":["\u202eevil"],"attributes":[{"key":"CODE","value":"\u001b]0;x\u0007"}]}"#
        .utf8)
    let (status, _) = try await rig.request(
      "POST", "device/v1/registration", body: body,
      headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
    #expect(status == 201)
    await rig.server.processDue()
    let url = try #require(URL(string: "api/devices", relativeTo: rig.baseURL))
    let (data, _) = try await URLSession.shared.data(from: url)
    let text = String(decoding: data, as: UTF8.self)
    #expect(
      !text.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E || $0.value == 0x1B })
    #expect(text.contains(#"\u009b"#) && text.contains(#"\u202e"#))
    let devices = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let device = (devices?["devices"] as? [[String: Any]])?.first
    #expect(device?["deviceID"] as? String == "D\u{9B}1m")
    await rig.stop()
  }
}
