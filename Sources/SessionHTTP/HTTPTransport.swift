import Foundation
import NIOCore
import NIOHTTP1
import OutboundHTTP
import RegistrationCore
import RegistrationEngine

/// Sends registrations over HTTP (R6.1): a real Marketing Cloud tenant or the local Engagement
/// server, or whatever server the user points a device at. Through `OutboundHTTP`, the one
/// client for every party outside RegScope, so a server answering a status below 100 or bytes
/// that are not HTTP is a failed send, never a trap. Each request has a deadline (the
/// configuration's request time-out) over connecting, sending and reading the whole answer;
/// connecting alone gets at most 10 s, so an unreachable network fails in seconds.
public struct HTTPTransport: RegistrationTransport {
  /// The most of an answer's body that is kept (the rest is read and dropped, as an app keeps
  /// what it needs of its server's answer).
  static let largestAnswer = 1 << 20

  private let wallClock: @Sendable () -> Date

  public init(wallClock: @escaping @Sendable () -> Date = { Date() }) {
    self.wallClock = wallClock
  }

  public func send(_ request: RegistrationRequest) async -> SendResult {
    let sent = await exchange(
      .POST, request.url, request.headers, body: request.body, timeout: request.timeout)
    switch sent {
    case .success(let answer):
      let serverDate = answer.header("Date").flatMap(RetryAfter.httpDate)
      let retryAfter = answer.header("Retry-After").flatMap {
        request.retryAfter(header: $0, now: serverDate ?? wallClock())
      }
      return .answered(
        status: answer.status, retryAfter: retryAfter,
        body: String(decoding: answer.body.readableBytesView, as: UTF8.self),
        subscriberToken: answer.header("X-Subscriber-Token"))
    case .failure(let failed): return .transportFailed(failed.words)
    }
  }

  /// The inbox fetch: a GET with the device routes' headers; the answer's status and body.
  public func fetch(_ request: InboxRequest) async -> SendResult {
    switch await exchange(.GET, request.url, request.headers, body: [], timeout: request.timeout)
    {
    case .success(let answer):
      return .answered(
        status: answer.status, retryAfter: nil,
        body: String(decoding: answer.body.readableBytesView, as: UTF8.self))
    case .failure(let failed): return .transportFailed(failed.words)
    }
  }

  /// A failed exchange, in the words a send's history keeps.
  struct Failed: Error {
    let words: String
  }

  /// Sends one request with the SDK's `headers` on a connection of its own (`Connection:
  /// close`: a fresh connection never meets one a server restart left stale) and reads the
  /// whole answer within `timeout` seconds. An answer counts only once it has ended: a
  /// connection dropped after the head is a failure without a status.
  private func exchange(
    _ method: HTTPMethod, _ url: URL, _ headers: [HTTPHeader], body: [UInt8], timeout: Double
  ) async -> Result<OutboundHTTP.Answer, Failed> {
    var fields = HTTPHeaders()
    for header in headers { fields.add(name: header.name, value: header.value) }
    guard
      let (target, head) = OutboundHTTP.request(
        method, url: url.absoluteString, headers: fields, bodyCount: body.count)
    else { return .failure(Failed(words: "the server URL is not valid")) }
    // The configuration caps the time-out at ten minutes, so this cannot overflow.
    let deadline = Duration.milliseconds(Int64((timeout * 1000).rounded()))
    do {
      return .success(
        try await OutboundHTTP.exchange(
          target, head: head, body: ByteBuffer(bytes: body), deadline: deadline,
          largest: Self.largestAnswer, overflow: .keepFirst))
    } catch let failure as OutboundHTTP.Failure {
      return .failure(Failed(words: Self.describe(failure, timeout: timeout)))
    } catch {
      return .failure(Failed(words: "cancelled"))
    }
  }

  static func seconds(_ value: Double) -> String { NumberText.compact(value) }

  /// The failure in a few words a person can act on.
  static func describe(_ failure: OutboundHTTP.Failure, timeout: Double) -> String {
    switch failure {
    case .deadline: "timed out after \(seconds(timeout)) s"
    case .unreachable(let words): words
    case .closedEarly, .appGone: "the connection was dropped"
    case .invalidStatus(let status):
      "the server answered status \(status), which is not an HTTP answer an app can take"
    case .notHTTP: "the server's answer is not HTTP"
    case .tooLarge(let limit): "the answer is larger than \(limit) bytes"
    case .unsendableHeader(let name):
      "its \(name) header holds a control character, so it was not sent"
    }
  }
}
