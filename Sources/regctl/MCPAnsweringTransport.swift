import Foundation
import Logging
import MCP

/// Standard input and output for the MCP server, counting the requests read and the answers
/// written: the SDK's server stops when the input ends, while a tool may still be working on
/// the last request, so `regctl mcp` waits for every answer before it exits.
actor AnsweringTransport: Transport {
  nonisolated let logger: Logger
  private let base: StdioTransport
  private let incoming: AsyncThrowingStream<Data, Swift.Error>
  private let feed: AsyncThrowingStream<Data, Swift.Error>.Continuation
  private var asked = 0
  private var answered = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(base: StdioTransport = StdioTransport()) {
    self.base = base
    logger = base.logger
    (incoming, feed) = AsyncThrowingStream.makeStream()
  }

  func connect() async throws {
    try await base.connect()
    let source = await base.receive()
    let feed = self.feed
    Task {
      do {
        for try await message in source {
          await self.read(message)
          feed.yield(message)
        }
        feed.finish()
      } catch {
        feed.finish(throwing: error)
      }
    }
  }

  func disconnect() async { await base.disconnect() }

  func send(_ data: Data) async throws {
    try await base.send(data)
    if Self.has(data, "id") && (Self.has(data, "result") || Self.has(data, "error")) {
      answered += 1
      if answered >= asked {
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
      }
    }
  }

  nonisolated func receive() -> AsyncThrowingStream<Data, Swift.Error> { incoming }

  /// Returns once every request read so far has its answer written.
  func waitUntilAnswered() async {
    guard answered < asked else { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  private func read(_ message: Data) {
    if Self.has(message, "id") && Self.has(message, "method") { asked += 1 }
  }

  private static func has(_ message: Data, _ key: String) -> Bool {
    ((try? JSONSerialization.jsonObject(with: message)) as? [String: Any])?[key] != nil
  }
}
