import Foundation
import NIOCore
import NIOHTTP1

/// One request to a third party and its whole answer, within one deadline and a size: what
/// the tenant client and the MCP server's receiver calls both need. The transport is
/// injectable, so a caller's tests run without sockets or real time (`network` is the real
/// one, over `OutboundHTTP.exchange`); errors are typed, never matched by their text.
public struct BoundedFetch: Sendable {
  public struct Request: Sendable {
    public var url: String
    public var method: HTTPMethod = .GET
    public var headers = HTTPHeaders()
    public var body: [UInt8]? = nil

    public init(url: String) { self.url = url }
  }

  public struct Answer: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]) {
      self.status = status
      self.headers = headers
      self.body = body
    }
  }

  public enum Failure: Error, Sendable, Equatable {
    /// No connection, or it broke: in a few escaped words.
    case unreachable(String)
    /// The whole answer did not come within the deadline.
    case late
    /// The answer is longer than `largest`.
    case tooLarge
    /// It answered, but not with HTTP that can be taken (a status outside 200-599, bytes that
    /// are not HTTP, an answer cut short).
    case notHTTP(String)
    /// A header that cannot be sent (a control character in a token): its name only.
    case unsendableHeader(String)
  }

  /// One exchange: the request, the deadline over its whole answer, the most bytes read.
  public typealias Transport =
    @Sendable (Request, _ deadline: Duration, _ largest: Int) async -> Result<Answer, Failure>

  /// Seconds from sending a request to the last byte of its answer.
  public let deadline: Double
  /// The most bytes of one answer read.
  public let largest: Int
  private let transport: Transport

  public init(deadline: Double, largest: Int, transport: @escaping Transport = BoundedFetch.network)
  {
    self.deadline = deadline
    self.largest = largest
    self.transport = transport
  }

  /// `within`: seconds for this request, at most `deadline` (the time its exchange has left).
  public func send(_ request: Request, within: Double? = nil) async -> Result<Answer, Failure> {
    let seconds = max(0, min(deadline, within ?? deadline))
    return await transport(request, .nanoseconds(Int64((seconds * 1e9).rounded())), largest)
  }

  /// The real network: `OutboundHTTP.exchange`, one connection an exchange.
  public static let network: Transport = { request, deadline, largest in
    guard
      let (target, head) = OutboundHTTP.request(
        request.method, url: request.url, headers: request.headers,
        bodyCount: request.body?.count ?? 0)
    else {
      return .failure(.unreachable("not an http or https URL"))
    }
    do {
      let answer = try await OutboundHTTP.exchange(
        target, head: head, body: ByteBuffer(bytes: request.body ?? []), deadline: deadline,
        largest: largest)
      var fields = HTTPHeaders()
      for (name, value) in answer.headers { fields.add(name: name, value: value) }
      return .success(
        Answer(status: answer.status, headers: fields, body: Array(answer.body.readableBytesView)))
    } catch let failure as OutboundHTTP.Failure {
      switch failure {
      case .deadline: return .failure(.late)
      case .tooLarge: return .failure(.tooLarge)
      case .unsendableHeader(let name): return .failure(.unsendableHeader(name))
      case .invalidStatus, .notHTTP, .closedEarly: return .failure(.notHTTP("\(failure)"))
      case .unreachable(let reason): return .failure(.unreachable(reason))
      case .appGone: return .failure(.unreachable("the request was abandoned"))
      }
    } catch is CancellationError {
      return .failure(.unreachable("the request was cancelled"))
    } catch {
      return .failure(.unreachable(OutboundHTTP.words(error)))
    }
  }
}
