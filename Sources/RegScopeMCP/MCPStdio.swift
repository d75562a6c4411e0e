import Dispatch
import Foundation
import Logging
import MCP
import SystemCalls

/// `regctl mcp`'s standard input and output, on the SDK's `Transport`, in place of its
/// `StdioTransport` (which read lines in quadratic time, had no line limit and dropped a last
/// line without its newline). Every line read is answered exactly once: what the SDK's server
/// would leave unanswered is answered here (`MCPFront`), and the requests passed on are
/// counted, so `regctl mcp` exits at the end of input only once each has its answer.
public actor MCPStdio: Transport {
  /// The longest line read: a request is a few kilobytes, and a batch of 20,000 pings under
  /// one megabyte. A longer line is answered with an error naming this, then skipped.
  static let lineLimit = 8 << 20

  public nonisolated let logger = Logger(
    label: "regctl.mcp", factory: { _ in SwiftLogNoOpLogHandler() })
  private let input: Int32
  private let output: Int32
  /// Reads not yet taken, at most this many (64 KB each): the reader waits beyond it, so a
  /// client that writes faster than requests are handled is held back, not buffered.
  private let room = DispatchSemaphore(value: 64)
  private var reads: AsyncStream<[MCPLineReader.Event]>.Iterator?
  private var events: [MCPLineReader.Event] = []
  private var nextEvent = 0
  /// Requests passed to the server and not answered yet, by id (an id may be reused).
  private var owed: [ID: Int] = [:]
  /// For each batch passed on, its items refused here: they join the server's answer to it.
  private var batchRefusals: [[Data]] = []
  /// The requests of the message the server took last, and whether a batch's refusals wait
  /// for its answer: the server reads one message at a time, and answers one it cannot read
  /// before it takes the next.
  private var lastPassed: (asked: [ID], refusalsWaiting: Bool) = ([], false)
  private var outputGone = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  public init(
    input: Int32 = SystemCalls.standardInput, output: Int32 = SystemCalls.standardOutput
  ) {
    self.input = input
    self.output = output
  }

  public func connect() async throws {
    guard reads == nil else { return }
    let (stream, continuation) = AsyncStream.makeStream(of: [MCPLineReader.Event].self)
    reads = stream.makeAsyncIterator()
    let input = input
    let room = room
    // A thread of its own: read(2) blocks, and the cooperative pool must not.
    Thread {
      var reader = MCPLineReader(limit: Self.lineLimit)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { SystemCalls.readSome(input, into: $0) }
        guard count > 0 else { break }
        let lines = buffer.withUnsafeBytes {
          reader.take(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
        room.wait()
        continuation.yield(lines)
      }
      continuation.yield(reader.finish())
      continuation.finish()
    }.start()
  }

  public func disconnect() async {}

  /// The messages for the server, taken from the input as the server asks for them.
  public func receive() -> AsyncThrowingStream<Data, any Swift.Error> {
    AsyncThrowingStream { await self.nextMessage() }
  }

  public func send(_ data: Data) async throws {
    var message = data
    if let unread = unreadAnswer(data) {
      message = unread
    } else if data.first == UInt8(ascii: "["), !batchRefusals.isEmpty {
      // The server answers each batch with one array, in the order the batches were passed on.
      let refused = batchRefusals.removeFirst()
      if !refused.isEmpty {
        message = data.dropLast() + Data(",".utf8) + Self.joined(refused) + Data("]".utf8)
      }
    }
    let answered = Self.answeredIDs(data)
    guard writeLine(message) else { throw OutputClosed() }
    for id in answered {
      guard let count = owed[id] else { continue }
      owed[id] = count > 1 ? count - 1 : nil
    }
    settle()
  }

  /// The server's own parse error, which it gives a made-up id (a UUID no request had) when
  /// it cannot read a message passed on (`MCPFront` passes on only what it can read; this is
  /// the net under it): said with a null id, and that message's requests owed nothing more,
  /// so the end of input still ends `regctl mcp`.
  private func unreadAnswer(_ data: Data) -> Data? {
    guard data.starts(with: Data(#"{"error":{"code":-32700,"#.utf8)) else { return nil }
    if let id = Self.answeredIDs(data).first, owed[id] != nil { return nil }
    for id in lastPassed.asked {
      guard let count = owed[id] else { continue }
      owed[id] = count > 1 ? count - 1 : nil
    }
    if lastPassed.refusalsWaiting, !batchRefusals.isEmpty { batchRefusals.removeLast() }
    lastPassed = ([], false)
    return MCPFront.refusal(
      -32700, nil,
      "Parse error: a line is one JSON-RPC message, and the server could not read this one")
  }

  /// Returns once every request passed on has its answer written (or nothing more can be).
  public func waitUntilAnswered() async {
    guard !owed.isEmpty, !outputGone else { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  // MARK: Reading

  private func nextMessage() async -> Data? {
    while true {
      while nextEvent < events.count {
        let event = events[nextEvent]
        nextEvent += 1
        if let message = take(event) { return message }
      }
      // Only the server's loop asks, one message at a time: the iterator is held alone.
      guard var iterator = reads else { return nil }
      reads = nil
      let next = await iterator.next(isolation: self)
      room.signal()
      guard let next else { return nil }
      reads = iterator
      events = next
      nextEvent = 0
    }
  }

  /// What the server is to see of one line, after answering here what it would not.
  private func take(_ event: MCPLineReader.Event) -> Data? {
    guard case .line(let line) = event else {
      writeLine(
        MCPFront.refusal(
          -32600, nil,
          "Invalid Request: a line is read up to \(Self.lineLimit) bytes (8 MiB); this one was longer and was skipped"
        ))
      return nil
    }
    let reading = MCPFront.read(line)
    for id in reading.asked { owed[id, default: 0] += 1 }
    for id in reading.cancelled { owed[id] = nil }
    if reading.forward != nil {
      lastPassed = (reading.asked, reading.batch && !reading.asked.isEmpty)
    }
    if reading.batch && !reading.asked.isEmpty {
      batchRefusals.append(reading.refusals)
    } else if reading.batch && !reading.refusals.isEmpty {
      writeLine(Data("[".utf8) + Self.joined(reading.refusals) + Data("]".utf8))
    } else if let refusal = reading.refusals.first {
      writeLine(refusal)
    }
    settle()
    return reading.forward
  }

  // MARK: Writing

  /// Writes one message and its newline, whole; false once standard output is gone. In the
  /// actor, so messages never interleave: a client that stops reading holds the server (and
  /// so its reading) back, as a full pipe should.
  @discardableResult
  private func writeLine(_ message: Data) -> Bool {
    guard !outputGone else { return false }
    if !Self.writeAll(message, to: output) {
      outputGone = true
      settle()
    }
    return !outputGone
  }

  private static func writeAll(_ message: Data, to output: Int32) -> Bool {
    var bytes = [UInt8](message)
    bytes.append(0x0A)
    return bytes.withUnsafeBytes { SystemCalls.writeAll($0, to: output) }
  }

  private func settle() {
    guard owed.isEmpty || outputGone else { return }
    for continuation in waiting { continuation.resume() }
    waiting.removeAll()
  }

  private static func joined(_ messages: [Data]) -> Data {
    var joined = Data()
    for (index, message) in messages.enumerated() {
      if index > 0 { joined.append(UInt8(ascii: ",")) }
      joined.append(message)
    }
    return joined
  }

  /// The ids an outgoing message answers: a response's, or each of a batch's.
  private static func answeredIDs(_ data: Data) -> [ID] {
    if let id = numberAnswered(data) { return [id] }
    let decoder = JSONDecoder()
    if data.first == UInt8(ascii: "[") {
      return ((try? decoder.decode([Answer].self, from: data)) ?? []).compactMap(\.id)
    }
    return [(try? decoder.decode(Answer.self, from: data))?.id].compactMap { $0 }
  }

  /// The id of a result as the SDK writes it (its keys sorted), when the id is a number:
  /// `{"id":12,"jsonrpc":"2.0","result":`. Read without decoding what may be a 256 KB answer;
  /// anything else is decoded whole.
  private static func numberAnswered(_ data: Data) -> ID? {
    let head = Array(#"{"id":"#.utf8)
    let tail = Array(#","jsonrpc":"2.0","result":"#.utf8)
    guard data.starts(with: head) else { return nil }
    var end = data.startIndex + head.count
    if end < data.endIndex && data[end] == UInt8(ascii: "-") { end += 1 }
    while end < data.endIndex && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[end]) {
      end += 1
    }
    guard data[end...].starts(with: tail),
      let number = Int(String(decoding: data[(data.startIndex + head.count)..<end], as: UTF8.self))
    else { return nil }
    return .number(number)
  }

  struct OutputClosed: Error, CustomStringConvertible {
    var description: String { "standard output is closed" }
  }

  /// An outgoing message as far as counting goes: its id, when it is an answer.
  private struct Answer: Decodable {
    var id: ID?

    private enum Key: String, CodingKey { case id, method, result, error }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      let isAnswer =
        !container.contains(.method)
        && (container.contains(.result) || container.contains(.error))
      id = isAnswer ? try? container.decode(ID.self, forKey: .id) : nil
    }
  }
}
