import AsyncHTTPClient
import Foundation
import NIOCore

/// The receiver's answers, for the MCP tools that read devices: one deadline over the whole
/// answer (AsyncHTTPClient's own ends once the head has come: a receiver that dribbled a byte a
/// second held a tool for as long as it liked), and a size past which an answer is not read.
struct ReceiverFetch: Sendable {
  /// The most of one answer read. Tools answer at most `RegScopeTools.answerLimit`, but a
  /// page of devices or a device's field stories is read whole first, then told in short or
  /// refused with how to ask for less.
  static let largestAnswer = 16 << 20

  let receiver: URL
  /// Seconds from sending the request to the last byte of the answer.
  let deadline: Double

  struct Answer: Sendable {
    var status: Int
    var body: [UInt8]
  }

  enum Failure: Error, Sendable {
    /// No connection, or it broke: the client's words.
    case unreachable(String)
    /// The whole answer did not come within the deadline.
    case late
    /// The answer is longer than `largestAnswer`.
    case tooLarge
  }

  func get(_ path: String) async -> Result<Answer, Failure> {
    let base = receiver.absoluteString
    let url = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + path
    return await execute(HTTPClientRequest(url: url))
  }

  /// The answer whole, or why not, within `deadline` whatever the receiver does: the request
  /// runs in a task of its own that is cancelled (closing the connection) when time is up.
  func execute(_ request: HTTPClientRequest) async -> Result<Answer, Failure> {
    let (results, continuation) = AsyncStream.makeStream(of: Result<Answer, Failure>.self)
    let seconds = deadline
    let work = Task {
      continuation.yield(await Self.whole(request, seconds: seconds))
      continuation.finish()
    }
    let timer = Task {
      try? await Task.sleep(for: .seconds(seconds))
      continuation.yield(.failure(.late))
      continuation.finish()
    }
    var iterator = results.makeAsyncIterator()
    let first = await iterator.next()
    work.cancel()
    timer.cancel()
    return first ?? .failure(.unreachable("the request was cancelled"))
  }

  private static func whole(_ request: HTTPClientRequest, seconds: Double) async -> Result<
    Answer, Failure
  > {
    do {
      let response = try await client.execute(
        request, timeout: .nanoseconds(Int64(seconds * 1e9)))
      if let length = response.headers.first(name: "Content-Length").flatMap(Int.init),
        length > largestAnswer
      {
        return .failure(.tooLarge)
      }
      var body: [UInt8] = []
      for try await chunk in response.body {
        guard body.count + chunk.readableBytes <= largestAnswer else { return .failure(.tooLarge) }
        body += chunk.readableBytesView
      }
      return .success(Answer(status: Int(response.status.code), body: body))
    } catch {
      return .failure(.unreachable("\(error)"))
    }
  }

  /// One client for the process, never shut down. A refused connection is an answer at once
  /// (no receiver there), not retried until a time-out.
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(3)))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()
}
