import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `regctl mcp` against receivers that misbehave, played on loopback by `CaptureServer` (#43):
/// one that dribbles its answer, one that answers more than an answer holds, one whose text
/// carries terminal escapes; and files too large to read.
@Suite("regctl mcp and what it reads", .serialized, .timeLimit(.minutes(10)))
struct MCPReceiverTests {
  static func started(_ arguments: [String]) async throws -> InteractiveProcess {
    let mcp = try InteractiveProcess(try regctlURL(), ["mcp"] + arguments)
    _ = try await MCPBinaryTests.ask(
      mcp, 1, "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
        "clientInfo": ["name": "t", "version": "1"],
      ])
    return mcp
  }

  static func json(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  @Test("a receiver that dribbles its answer: the deadline covers the body, the connection is cut")
  func dribble() async throws {
    let head = Array(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 600\r\n\r\n".utf8)
    let receiver = try CaptureServer { _ in
      .dribble(head: head, pieces: Array(repeating: Array(" ".utf8), count: 600), every: 0.5)
    }
    defer { receiver.stop() }
    let mcp = try await Self.started([
      "--receiver", "http://127.0.0.1:\(receiver.port)", "--receiver-deadline", "1s",
    ])
    let clock = ContinuousClock()
    let asked = clock.now
    let late = try await MCPBinaryTests.call(mcp, 2, "explain_device", ["deviceID": "D"])
    // The whole answer takes 300 s to come; the tool answers at the deadline, which a busy
    // machine (two whole test runs at once) may tell this test of a while later.
    #expect(clock.now - asked < .seconds(120), "\(clock.now - asked)")
    #expect(late.isError && late.text.contains("within 1 s"), "\(late.text)")
    #expect(try await offThePool { receiver.waitForCutAnswers(1, seconds: 120) })
    #expect(try await mcp.finish() == 0)
  }

  @Test("answers over 256 KB: whole and valid, or refused with how to ask for less")
  func largeAnswers() async throws {
    let value = String(repeating: "v", count: 3_000)
    let fields = (0..<200).map { index -> [String: Any] in
      [
        "kind": "attribute", "name": "A\(index)", "notes": [String](),
        "events": [["at": 1, "registrationID": 1, "value": value, "outcome": "accepted"]],
      ]
    }
    let story = try Self.json(["deviceID": "D", "registrationsRead": 1, "fields": fields])
    let devices = (0..<100).map { index -> [String: Any] in
      ["deviceID": "DEVICE-\(index)", "attributes": ["Big": value], "tags": [String]()]
    }
    let page = try Self.json(["devices": devices, "next": "DEVICE-99"])
    let receiver = try CaptureServer { request in
      .answer("200 OK", body: request.path.hasPrefix("/api/devices?") ? page : story)
    }
    defer { receiver.stop() }
    let mcp = try await Self.started(["--receiver", "http://127.0.0.1:\(receiver.port)"])
    let whole = try await MCPBinaryTests.call(mcp, 2, "device_fields", ["deviceID": "D"])
    #expect(whole.isError, "\(whole.text.count) bytes")
    #expect(whole.text.contains("field") && whole.text.contains("A0, A1"), "\(whole.text)")
    let one = try await MCPBinaryTests.call(
      mcp, 3, "device_fields", ["deviceID": "D", "field": "A7"])
    #expect(!one.isError, "\(one.text)")
    let parsed = try JSONSerialization.jsonObject(with: Data(one.text.utf8)) as? [String: Any]
    #expect((parsed?["fields"] as? [[String: Any]])?.map { $0["name"] as? String } == ["A7"])
    // 100 devices of 3 KB each: past 256 KB as the receiver sends them, a few KB as told.
    let listed = try await MCPBinaryTests.call(mcp, 4, "list_devices", [:])
    #expect(!listed.isError, "\(listed.text)")
    #expect(listed.text.split(separator: "\n").count == 101, "\(listed.text)")
    #expect(listed.text.contains("before \"DEVICE-99\""))
    #expect(try await mcp.finish() == 0)
  }

  @Test("receiver text is escaped: sentences, error messages; a token with CR LF is masked")
  func escaped() async throws {
    let hostile = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{9B}31m"
    let explanation = try Self.json(["deviceID": "D", "sentences": ["FirstName " + hostile]])
    let missing = try Self.json(["message": "no device " + hostile])
    let receiver = try CaptureServer { request in
      request.path.contains("/D/")
        ? .answer("200 OK", body: explanation) : .answer("404 Not Found", body: missing)
    }
    defer { receiver.stop() }
    let mcp = try await Self.started(["--receiver", "http://127.0.0.1:\(receiver.port)"])
    let said = try await MCPBinaryTests.call(mcp, 2, "explain_device", ["deviceID": "D"])
    #expect(!said.isError && said.text.hasPrefix("FirstName \\e]52"), "\(said.text)")
    let unknown = try await MCPBinaryTests.call(mcp, 3, "explain_device", ["deviceID": "E"])
    #expect(unknown.isError && unknown.text.contains("no device \\e]52"), "\(unknown.text)")
    for text in [said.text, unknown.text] {
      #expect(
        !text.unicodeScalars.contains {
          $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
        })
    }
    let token = "secret-token-0123456789\r\nX-Injected: 1"
    let fault = try await MCPBinaryTests.call(
      mcp, 4, "inject_fault", ["token": token, "fault": #"{"status":503}"#])
    #expect(fault.isError && !fault.text.contains("0123456789"), "\(fault.text)")
    #expect(
      !fault.text.contains("\r") && !fault.text.contains("\n") && !fault.text.contains("Injected"))
    #expect(try await mcp.finish() == 0)
  }

  @Test("a 1 GB capture and a 1 GB scenario file: refused by size before a byte is read")
  func largeFiles() async throws {
    let directory = FileManager.default.temporaryDirectory
    var refused: [String] = []
    for name in ["huge-\(UUID().uuidString).har", "huge-\(UUID().uuidString).yaml"] {
      let path = directory.appendingPathComponent(name).path
      // Sparse: a gigabyte long, no disk taken.
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      #expect(truncate(path, 1 << 30) == 0)
      refused.append(path)
    }
    defer { for path in refused { try? FileManager.default.removeItem(atPath: path) } }
    let mcp = try await Self.started(["--receiver", "http://127.0.0.1:9"])
    let capture = try await MCPBinaryTests.call(mcp, 2, "judge_capture", ["path": refused[0]])
    #expect(capture.isError && capture.text.contains("up to 512 MiB"), "\(capture.text)")
    let scenario = try await MCPBinaryTests.call(mcp, 3, "run_scenario", ["name": refused[1]])
    #expect(scenario.isError && scenario.text.contains("up to 1 MiB"), "\(scenario.text)")
    #expect(try await mcp.finish() == 0)
  }
}
