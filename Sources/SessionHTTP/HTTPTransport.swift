import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RegistrationCore
import RegistrationEngine
import SystemCalls

/// Sends registrations over HTTP with AsyncHTTPClient (R6.1): a real Marketing Cloud tenant or
/// the local Engagement server. Each request has a deadline (the configuration's request
/// time-out) that covers connecting, sending and reading; connecting alone has its own, shorter
/// one, so an unreachable network fails in seconds instead of hanging.
public struct HTTPTransport: RegistrationTransport {
  /// The longest a connection may take to open.
  public static let connectTimeout: Double = 10
  /// The most of an answer's body that is read (the rest is dropped).
  static let largestAnswer = 1 << 20

  /// One client for the process: it is never shut down, so it can outlive any engine. No
  /// redirects (a registration is not re-posted elsewhere), no connection pooling to speak of:
  /// a registration goes out at most once a minute.
  private static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .milliseconds(Int64(connectTimeout * 1000))),
      connectionPool: .init(idleTimeout: .seconds(5)))
    configuration.httpVersion = .http1Only
    // A refused connection is an answer (the server is down, R4.1): report it at once rather
    // than retry until the connect time-out.
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  private let wallClock: @Sendable () -> Date

  public init(wallClock: @escaping @Sendable () -> Date = { Date() }) {
    self.wallClock = wallClock
  }

  public func send(_ request: RegistrationRequest) async -> SendResult {
    var http = HTTPClientRequest(url: request.url.absoluteString)
    http.method = .POST
    http.body = .bytes(ByteBuffer(bytes: request.body))
    do {
      let (response, kept) = try await exchange(http, request.headers, timeout: request.timeout)
      let serverDate = response.headers.first(name: "Date").flatMap(RetryAfter.httpDate)
      let retryAfter = response.headers.first(name: "Retry-After").flatMap {
        request.retryAfter(header: $0, now: serverDate ?? wallClock())
      }
      return .answered(
        status: Int(response.status.code), retryAfter: retryAfter,
        body: String(decoding: kept, as: UTF8.self),
        subscriberToken: response.headers.first(name: "X-Subscriber-Token"))
    } catch {
      return .transportFailed(Self.describe(error, timeout: request.timeout))
    }
  }

  /// The inbox fetch: a GET with the device routes' headers; the answer's status and body.
  public func fetch(_ request: InboxRequest) async -> SendResult {
    var http = HTTPClientRequest(url: request.url.absoluteString)
    http.method = .GET
    do {
      let (response, kept) = try await exchange(http, request.headers, timeout: request.timeout)
      return .answered(
        status: Int(response.status.code), retryAfter: nil,
        body: String(decoding: kept, as: UTF8.self))
    } catch {
      return .transportFailed(Self.describe(error, timeout: request.timeout))
    }
  }

  /// Sends `http` with the SDK's `headers` and reads the whole answer within `timeout`.
  private func exchange(_ http: HTTPClientRequest, _ headers: [HTTPHeader], timeout: Double)
    async throws -> (HTTPClientResponse, [UInt8])
  {
    var http = http
    for header in headers { http.headers.add(name: header.name, value: header.value) }
    // A fresh connection each time never meets a pooled one that a server restart left stale.
    http.headers.replaceOrAdd(name: "Connection", value: "close")
    // The configuration caps the time-out at ten minutes, so this cannot overflow.
    let milliseconds = Int64((timeout * 1000).rounded())
    let response = try await Self.client.execute(
      http, deadline: .now() + .milliseconds(milliseconds))
    // An answer counts only once its body has arrived: a connection dropped after the
    // headers is a failure without a status. Past `largestAnswer`, the rest is dropped.
    var kept: [UInt8] = []
    for try await chunk in response.body where kept.count < Self.largestAnswer {
      kept += chunk.readableBytesView.prefix(Self.largestAnswer - kept.count)
    }
    return (response, kept)
  }

  static func seconds(_ value: Double) -> String { NumberText.compact(value) }

  /// The failure in a few words a person can act on.
  static func describe(_ error: any Error, timeout: Double) -> String {
    if let error = error as? HTTPClientError {
      switch error {
      case .deadlineExceeded, .readTimeout, .writeTimeout:
        return "timed out after \(seconds(timeout)) s"
      case .connectTimeout:
        return "could not connect within \(seconds(min(timeout, connectTimeout))) s"
      case .remoteConnectionClosed: return "the connection was dropped"
      case .invalidURL, .emptyHost, .emptyScheme: return "the server URL is not valid"
      case .cancelled: return "cancelled"
      default: return "HTTP client error: \(error)"
      }
    }
    if let error = error as? NIOConnectionError {
      if let first = error.connectionErrors.first { return describe(first.error, timeout: timeout) }
      if error.dnsAAAAError != nil || error.dnsAError != nil { return "unknown host" }
    }
    if let error = error as? IOError { return describe(errno: error.errnoCode) }
    if error is ChannelError { return "the connection was dropped" }
    let text = "\(error)"
    if text.contains("NXDOMAIN") || text.contains("lookup") { return "unknown host" }
    return "network error: \(text)"
  }

  static func describe(errno code: Int32) -> String {
    SystemCalls.describeNetworkError(code)
  }
}
