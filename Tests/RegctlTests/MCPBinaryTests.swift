import Foundation
import TestSupport
import Testing

/// `regctl mcp` driven over stdio as an assistant's client drives it (#30): initialize,
/// tools/list, each tool against a real `regctl serve`, and hostile arguments, which are tool
/// errors, never a crash.
@Suite("regctl mcp, over stdio", .serialized, .timeLimit(.minutes(10)))
struct MCPBinaryTests {
  /// One request, and its answer (read before the next request goes: answers may come in any
  /// order, so only one is outstanding at a time).
  static func ask(_ mcp: InteractiveProcess, _ id: Int, _ method: String, _ params: [String: Any])
    async throws -> [String: Any]
  {
    let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
    let data = try JSONSerialization.data(withJSONObject: request)
    mcp.send(String(decoding: data, as: UTF8.self) + "\n")
    let line = try #require(try await mcp.readLine { $0.contains("\"id\":\(id),") })
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  /// A tool's text and whether it is an error.
  static func call(_ mcp: InteractiveProcess, _ id: Int, _ tool: String, _ arguments: [String: Any])
    async throws -> (text: String, isError: Bool)
  {
    let answer = try await ask(mcp, id, "tools/call", ["name": tool, "arguments": arguments])
    let result = try #require(answer["result"] as? [String: Any], "\(answer)")
    let text = (result["content"] as? [[String: Any]])?.first?["text"] as? String ?? ""
    return (text, result["isError"] as? Bool ?? false)
  }

  static func post(_ port: Int, _ body: String) async throws {
    let head =
      "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      + "Authorization: Bearer \(ServeProcess.token)\r\nContent-Type: application/json\r\n"
      + "User-Agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n"
    let answer = try await rawExchange(port: port, Array((head + body).utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
  }

  static func body(_ attributes: [String: String]) -> String {
    let list = attributes.sorted { $0.key < $1.key }
      .map { #"{"key":"\#($0.key)","value":"\#($0.value)"}"# }.joined(separator: ",")
    return
      #"{"deviceID":"MCP-1","etAppId":"app","platform":"Android","subscriberKey":"ada@example.com","attributes":[\#(list)],"tags":["ALL","Android"]}"#
  }

  /// The server processes at once (delay 0 s), in its own loop, and says so on its output.
  static func processed(_ serve: ServeProcess, _ id: Int) async throws {
    let line = try await serve.process.readLine {
      $0.contains("serverProcessed server: #\(id) ")
    }
    #expect(line != nil, "registration #\(id) was never processed")
  }

  @Test("initialize, tools/list, and each tool on a receiver with a rejected attribute")
  func tools() async throws {
    let serve = try await ServeProcess.start([
      "--processing-delay", "0s", "--defined-attributes", "FirstName",
    ])
    try await Self.post(serve.port, Self.body(["FirstName": "Ada"]))
    try await Self.processed(serve, 1)
    try await Self.post(serve.port, Self.body(["FirstName": "Bob", "Plan": "pro"]))
    try await Self.processed(serve, 2)
    try await Self.post(
      serve.port, Self.body(["FirstName": "Cy"]).replacingOccurrences(of: "MCP-1", with: "MCP-2"))
    try await Self.processed(serve, 3)
    let mcp = try InteractiveProcess(
      try regctlURL(), ["mcp", "--receiver", "http://127.0.0.1:\(serve.port)"])
    let initialized = try await Self.ask(
      mcp, 1, "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
        "clientInfo": ["name": "test", "version": "1"],
      ])
    let result = try #require(initialized["result"] as? [String: Any])
    #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "regscope")
    mcp.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n")
    let listed = try await Self.ask(mcp, 2, "tools/list", [:])
    let names = ((listed["result"] as? [String: Any])?["tools"] as? [[String: Any]] ?? [])
      .compactMap { $0["name"] as? String }
    #expect(
      Set(names) == [
        "list_devices", "explain_device", "device_fields", "judge_capture", "run_scenario",
        "list_qa_plans", "inject_fault", "make_bundle",
      ])
    let explained = try await Self.call(mcp, 3, "explain_device", ["deviceID": "MCP-1"])
    #expect(!explained.isError)
    #expect(
      explained.text.contains("FirstName=Bob") && explained.text.contains("Fix: add Plan"),
      "\(explained.text)")
    let fields = try await Self.call(mcp, 4, "device_fields", ["deviceID": "MCP-1"])
    #expect(fields.text.contains("\"holds\" : \"FirstName=Ada\""), "\(fields.text)")
    let devices = try await Self.call(mcp, 5, "list_devices", [:])
    #expect(devices.text.contains("MCP-1") && devices.text.contains("judged as android@10.0.0"))
    #expect(!devices.text.contains(ServeProcess.token))
    // A device a line, the lines broken (not a written "\n"), counts in their number.
    let rows = devices.text.split(separator: "\n")
    #expect(rows.count == 2 && !devices.text.contains("\\n"), "\(devices.text)")
    #expect(rows.allSatisfy { $0.contains("0 violations") || $0.contains("1 violation,") })
    let plans = try await Self.call(mcp, 6, "list_qa_plans", [:])
    #expect(plans.text.contains("sdk-upgrade:"))
    let scenario = try await Self.call(mcp, 7, "run_scenario", ["name": "throttle-coalesces"])
    #expect(
      !scenario.isError && scenario.text.contains("PASS throttle-coalesces"), "\(scenario.text)")
    // A capture of two registrations, the second hammered: judged with the rules.
    let body = Self.body(["FirstName": "Ada"]).replacingOccurrences(of: "\"", with: "\\\"")
    let entry = { (time: String) in
      #"{"startedDateTime":"\#(time)","time":1,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1","headers":[{"name":"User-Agent","value":"MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":"\#(body)"}},"response":{"status":201,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}"#
    }
    let capture = FileManager.default.temporaryDirectory
      .appendingPathComponent("mcp-\(UUID().uuidString).har")
    try Data(
      #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[\#(entry("2026-11-22T10:00:00.000Z")),\#(entry("2026-11-22T10:00:05.000Z"))]}}"#
        .utf8
    ).write(to: capture)
    defer { try? FileManager.default.removeItem(at: capture) }
    let judged = try await Self.call(mcp, 10, "judge_capture", ["path": capture.path])
    #expect(!judged.isError && judged.text.contains("device MCP-1"), "\(judged.text)")
    #expect(
      judged.text.contains("throttleViolated") || judged.text.contains("unchangedResent"),
      "\(judged.text)")
    let wrong = try await Self.call(
      mcp, 8, "inject_fault", ["token": "not-the-token", "fault": #"{"status":503,"times":1}"#])
    #expect(wrong.isError && !wrong.text.contains("not-the-token"))
    let fault = try await Self.call(
      mcp, 9, "inject_fault", ["token": ServeProcess.token, "fault": #"{"status":503,"times":1}"#])
    #expect(!fault.isError, "\(fault.text)")
    #expect(try await mcp.finish() == 0)
    serve.process.terminate()
  }

  @Test("hostile arguments: an unknown device, a huge string, a FIFO, no receiver, an unknown tool")
  func hostile() async throws {
    let mcp = try InteractiveProcess(try regctlURL(), ["mcp", "--receiver", "http://127.0.0.1:9"])
    _ = try await Self.ask(
      mcp, 1, "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
        "clientInfo": ["name": "t", "version": "1"],
      ])
    let noReceiver = try await Self.call(mcp, 2, "explain_device", ["deviceID": "NOBODY"])
    #expect(noReceiver.isError && noReceiver.text.contains("did not answer"))
    let huge = try await Self.call(
      mcp, 3, "explain_device", ["deviceID": String(repeating: "x", count: 100_000)])
    #expect(huge.isError && huge.text.contains("at most 4096"))
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mcp-\(UUID().uuidString).har"
    ).path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let capture = try await Self.call(mcp, 4, "judge_capture", ["path": fifo])
    #expect(capture.isError && capture.text.contains("not a regular file"), "\(capture.text)")
    let missing = try await Self.call(mcp, 5, "judge_capture", [:])
    #expect(missing.isError && missing.text.contains("needs the argument \"path\""))
    let unknown = try await Self.call(mcp, 6, "format_disk", [:])
    #expect(unknown.isError && unknown.text.contains("the tools are"))
    let scenario = try await Self.call(mcp, 7, "run_scenario", ["name": "\u{1B}]0;pwned\u{07}"])
    #expect(scenario.isError && !scenario.text.contains("\u{1B}"))
    #expect(try await mcp.finish() == 0)
  }
}
