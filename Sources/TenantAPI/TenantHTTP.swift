import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One request to the tenant and its whole answer within one deadline (AsyncHTTPClient's own
/// ends once the head has come: a tenant dribbling a byte a second would hold a check for as
/// long as it liked), and a size past which an answer is not read.
struct TenantHTTP: Sendable {
  /// Definitions of every attribute set run to thousands of lines: a page is well under this.
  static let largestAnswer = 16 << 20

  struct Answer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
  }

  enum Failure: Error, Sendable {
    case unreachable(String)
    case late
    case tooLarge
  }

  /// Seconds from sending the request to the last byte of the answer.
  let deadline: Double

  func send(_ request: HTTPClientRequest) async -> Result<Answer, Failure> {
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
      return .success(
        Answer(status: Int(response.status.code), headers: response.headers, body: body))
    } catch {
      // The client's own deadline (the same length) may fire before the timer under load:
      // that is a late answer too, never an unreachable host.
      if "\(error)".contains("deadlineExceeded") { return .failure(.late) }
      return .failure(.unreachable(describe(error)))
    }
  }

  /// The client's error in a few words: AsyncHTTPClient's carry type names.
  private static func describe(_ error: any Error) -> String {
    let text = "\(error)"
    if text.contains("connectTimeout") { return "the connection timed out" }
    if text.contains("Connection refused") || text.contains("connectionRefused") {
      return "connection refused"
    }
    if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("getaddrinfo") {
      return "the host name does not resolve"
    }
    return String(text.prefix(200))
  }

  /// One client for the process, never shut down. No redirects: a token request is never
  /// re-posted, with the secret, to wherever a 3xx points.
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()
}
