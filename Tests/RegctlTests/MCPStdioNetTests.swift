import Foundation
import Testing

@testable import RegScopeMCP

#if canImport(Glibc)
  import Glibc
#endif

/// The net under `MCPFront` (#52): when the SDK's server cannot read a message that was
/// passed on, it answers a parse error with an id it made up, and the request's own id is
/// never answered. The transport says that error with a null id and owes the request nothing
/// more, so the end of input still ends `regctl mcp`.
@Suite("MCPStdio, when the server cannot read a message", .timeLimit(.minutes(10)))
struct MCPStdioNetTests {
  @Test("a made-up id becomes null, and the request passed on is owed nothing more")
  func madeUpID() async throws {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    #expect(pipe(&input) == 0 && pipe(&output) == 0)
    defer { for end in [input[0], output[0], output[1]] { close(end) } }
    let transport = MCPStdio(input: input[0], output: output[1])
    try await transport.connect()
    let request = #"{"jsonrpc":"2.0","id":7,"method":"ping"}"# + "\n"
    #expect(
      request.utf8.withContiguousStorageIfAvailable { write(input[1], $0.baseAddress, $0.count) }
        == request.utf8.count)
    close(input[1])
    var messages = await transport.receive().makeAsyncIterator()
    let passed = try await messages.next()
    #expect(passed.map { String(decoding: $0, as: UTF8.self) } == request.dropLast().description)
    // As the SDK's server answers what it cannot read.
    let madeUp =
      #"{"error":{"code":-32700,"data":{"detail":"Invalid message format"},"message":"Parse error"},"id":"AD0B032C-FF70-4623-8A49-AFC8965F4519","jsonrpc":"2.0"}"#
    try await transport.send(Data(madeUp.utf8))
    // Hangs (until the suite's limit) when the request is still owed its answer.
    await transport.waitUntilAnswered()
    let written = FileHandle(fileDescriptor: output[0], closeOnDealloc: false).availableData
    let answer = try #require(
      try JSONSerialization.jsonObject(with: written) as? [String: Any],
      "\(String(decoding: written, as: UTF8.self))")
    #expect(answer["id"] is NSNull)
    #expect((answer["error"] as? [String: Any])?["code"] as? Int == -32700)
  }
}
