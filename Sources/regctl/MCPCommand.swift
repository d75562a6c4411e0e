import ArgumentParser
import Foundation
import MCP
import RegScopeMCP
import RegistrationCore
import ToolSupport

/// `regctl mcp`: RegScope as a Model Context Protocol server on standard input and output,
/// so an engineer's coding assistant can ask what the app sent and why a field did not arrive,
/// answered with the SDK's rules. Attached to a running receiver for its devices; captures,
/// scenarios and QA plans need none.
struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "A Model Context Protocol server on stdin/stdout, for coding assistants.",
    discussion: """
      Tools: list_devices, explain_device, device_fields (a running receiver's devices), \
      judge_capture (a HAR file), run_scenario (a built-in scenario or a file), list_qa_plans, \
      inject_fault (with the receiver's token). Tokens are masked in every answer; no tool \
      writes a file. Nothing but the protocol goes to standard output; a line is read up to \
      8 MiB, strictly as JSON, and a batch holds at most 100 messages. See docs/mcp.md.
      """)

  @Option(help: "The receiver whose devices the tools read (regscope --receive, regctl serve).")
  var receiver = "http://127.0.0.1:8080"

  @Option(help: "How long the receiver has for a whole answer, its last byte included: 10s, 1m.")
  var receiverDeadline = "10s"

  func validate() throws {
    guard let url = URL(string: receiver), ["http", "https"].contains(url.scheme ?? ""),
      url.host != nil
    else {
      throw ValidationError(
        "--receiver must be an http:// or https:// URL, like http://127.0.0.1:8080; got \"\(receiver)\""
      )
    }
    switch DurationText.parse(receiverDeadline) {
    case .failure(let problem): throw ValidationError("--receiver-deadline: \(problem)")
    case .success(let seconds) where seconds <= 0:
      throw ValidationError("--receiver-deadline must be longer than 0 s")
    case .success: break
    }
  }

  func run() async throws {
    guard let url = URL(string: receiver) else { throw ValidationError("--receiver is not a URL") }
    let tools = RegScopeTools(receiver: url, deadline: DurationText.seconds(receiverDeadline) ?? 10)
    let server = Server(
      name: "regscope", version: RegScopeVersion.current,
      capabilities: .init(tools: .init(listChanged: false)))
    // Registered before the transport starts, so no early request finds no handler.
    await server.withMethodHandler(ListTools.self) { _ in .init(tools: RegScopeTools.list) }
    await server.withMethodHandler(CallTool.self) { call in
      let answer = await tools.call(call.name, call.arguments ?? [:])
      return .init(
        content: [.text(text: answer.text, annotations: nil, _meta: nil)], isError: answer.isError)
    }
    // The server stops when the input ends, while a tool may still be working on the last
    // request: each request read is answered before regctl mcp exits.
    let transport = MCPStdio()
    try await server.start(transport: transport)
    await server.waitUntilCompleted()
    await transport.waitUntilAnswered()
  }
}
