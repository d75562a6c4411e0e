import Clocks
import EngagementCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RegistrationCore
import Synchronization

/// Where the front's device exchanges go: the newest per device (for the API's HAR view), and
/// the `--har` file when one is written.
public final class ExchangeRecorder: Sendable {
  private let log = Mutex(ExchangeLog())
  private let sink: (@Sendable (CapturedExchange) -> Void)?

  public init(sink: (@Sendable (CapturedExchange) -> Void)? = nil) { self.sink = sink }

  func record(_ exchange: CapturedExchange) {
    // The exchange dropped for the budget is let go here, after the lock.
    let dropped = log.withLock { $0.record(exchange) }
    sink?(exchange)
    _ = consume dropped
  }

  public func exchanges(of deviceID: String) -> [CapturedExchange]? {
    log.withLock { $0.exchanges(of: deviceID) }
  }
}

/// Records each device request with its answer, as it went over the wire.
///
/// A device route that reads its body and answers with bytes (every answer but a fault's)
/// notes both in the context (`ExchangeNotes`), and the exchange is recorded as the route
/// returns, its answer left as it is: Hummingbird writes such an answer's head, body and end
/// in one go, where a wrapped answer is written in three (a third of the front's cost under a
/// fleet). Otherwise the body's bytes are copied as the route reads them, the answer's as
/// they are written, and the exchange is recorded once the answer is complete, or has failed
/// (a dropped connection is an exchange with no answer).
struct CaptureMiddleware: RouterMiddleware {
  typealias Context = EngagementRequestContext
  let recorder: ExchangeRecorder
  /// The front's rules: the capture's URL and how an answer completes an exchange, as the
  /// fast path records its own.
  let rules: FrontRules
  /// The server's clock: a request's time in the capture is the time the watch judged it at.
  let clock: any EngineClock
  /// Whether the routes behind note the body they read (the local routes do; the relay's
  /// bodies are copied as they are read).
  let routesNoteBodies: Bool

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let startedAt = clock.now()
    let started = ContinuousClock.now
    var request = request
    // A small body of a declared length is read whole by the local routes, which note it;
    // any other is copied as it is read (a refused app's larger body is not read whole).
    let requestCopy: BytesCopy?
    if routesNoteBodies,
      let declared = request.headers[.contentLength].flatMap({ Int($0) }),
      declared <= rules.wholeBodyLimit
    {
      requestCopy = nil
    } else {
      let copy = BytesCopy(limit: rules.maxBodyBytes)
      request.body = RequestBody(
        asyncSequence: request.body.map { buffer in
          copy.append(buffer)
          return buffer
        })
      requestCopy = copy
    }
    var exchange = CapturedExchange(
      startedAt: startedAt, method: request.method.rawValue,
      url: rules.url(authority: request.head.authority, uri: request.uri.description),
      requestHeaders: [HeaderField](request.headers),
      status: nil)
    var response = try await next(request, context)
    exchange.status = response.status.code
    exchange.responseHeaders = [HeaderField](response.headers)
    let notes = context.exchange.taken()
    if let answer = notes.answer {
      exchange.requestBody = requestCopy?.bytes ?? notes.body
      FrontRules.complete(
        &exchange, status: response.status.code, headers: exchange.responseHeaders, body: answer,
        since: started, delivered: context.channel.isActive)
      recorder.record(exchange)
      return response
    }
    let recorder = self.recorder
    let answer = response.body
    let frozen = exchange
    let readBody = notes.body
    response.body = ResponseBody(contentLength: answer.contentLength) { writer in
      let answerCopy = BytesCopy(limit: 1 << 20)
      var recorded = frozen
      recorded.requestBody = requestCopy?.bytes ?? readBody
      do {
        try await answer.write(CopyingWriter(base: writer, copy: answerCopy))
        recorded.responseBody = answerCopy.bytes
      } catch {
        // A dropped connection: the app got no answer.
        recorded.status = nil
        recorded.error = FrontRules.dropped
        recorded.duration = FrontRules.seconds(since: started)
        recorder.record(recorded)
        throw error
      }
      recorded.duration = FrontRules.seconds(since: started)
      recorder.record(recorded)
    }
    return response
  }

}

extension [HeaderField] {
  /// Fields as the capture keeps them: each name as it was sent, each value.
  init(_ fields: HTTPFields) {
    self = fields.map { HeaderField($0.name.rawName, $0.value) }
  }
}

/// What a local device route tells the capture: the body it read (the last it read, up to
/// the server's limit) and, when it answers with bytes, the answer's body.
final class ExchangeNotes: Sendable {
  private let notes = Mutex<(body: [UInt8], answer: [UInt8]?)>(([], nil))

  func read(_ body: ByteBuffer) {
    let bytes = Array(body.readableBytesView)
    notes.withLock { $0.body = bytes }
  }

  func answered(_ body: [UInt8]) { notes.withLock { $0.answer = body } }

  func taken() -> (body: [UInt8], answer: [UInt8]?) { notes.withLock { $0 } }
}

/// What the route read of a request body, up to `limit` bytes.
final class BytesCopy: Sendable {
  private let copied = Mutex<[UInt8]>([])
  let limit: Int

  init(limit: Int) { self.limit = limit }

  func append(_ buffer: ByteBuffer) {
    copied.withLock { bytes in
      guard bytes.count < limit else { return }
      bytes += buffer.readableBytesView.prefix(limit - bytes.count)
    }
  }

  var bytes: [UInt8] { copied.withLock { $0 } }
}

/// Hands every write on, keeping a copy of the bytes in `copy` (an answer is small: JSON).
private struct CopyingWriter: ResponseBodyWriter {
  var base: any ResponseBodyWriter
  let copy: BytesCopy

  mutating func write(_ buffer: ByteBuffer) async throws {
    copy.append(buffer)
    try await base.write(buffer)
  }

  consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
    try await base.finish(trailingHeaders)
  }
}
