import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SystemCalls

/// One exchange with a third party (the tenant, its token service, a receiver MCP asks, the
/// server a simulated device registers with) on a connection of its own: the request, then
/// the whole answer, within one deadline, bounded in bytes. Every outbound call of RegScope
/// goes through it. Written on SwiftNIO's HTTP/1.1 codec rather than on AsyncHTTPClient, whose
/// connection state machine traps when a server answers a status below 100 (a hostile tenant
/// must not take a receiver down), and whose deadline stops at the answer's head. A
/// connection per exchange means no pool to starve: a slow answer holds only its own
/// connection. Redirects are never followed.
public enum OutboundHTTP {
  public struct Target: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var tls: Bool
    /// The path every request's path is put under (`/base`), without a trailing slash.
    public var basePath: String

    /// `host` as a URL writes it or bare: an IPv6 address's brackets (`[::1]`, as
    /// `URLComponents` keeps them) are no part of the address a connection resolves.
    public init(host: String, port: Int, tls: Bool, basePath: String) {
      self.host =
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
      self.port = port
      self.tls = tls
      self.basePath = basePath
    }

    /// `http://` or `https://` `host[:port][/base]`; nil for anything else.
    public init?(url: String) {
      guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
        scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty
      else { return nil }
      let tls = scheme == "https"
      // Foundation reads a port it cannot hold (`:99999999999999999999`) as none: the
      // default port would then be asked instead of the one written.
      if Self.writesPort(url), !(1...65535).contains(parts.port ?? 0) { return nil }
      var path = parts.percentEncodedPath
      while path.hasSuffix("/") { path.removeLast() }
      self.init(host: host, port: parts.port ?? (tls ? 443 : 80), tls: tls, basePath: path)
    }

    /// Whether the URL's authority writes a port after its host (IPv6 hosts in brackets).
    static func writesPort(_ url: String) -> Bool {
      guard let start = url.range(of: "://")?.upperBound else { return false }
      let authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
      return !hostAndPort.hasSuffix("]") && hostAndPort.contains(":")
    }

    /// The Host header's value: the port only when it is not the scheme's own.
    public var hostHeader: String {
      let bare = host.contains(":") ? "[\(host)]" : host
      return port == (tls ? 443 : 80) ? bare : "\(bare):\(port)"
    }
  }

  /// A whole answer: status, headers as they came, body.
  public struct Answer: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: ByteBuffer

    public init(status: Int, headers: [(name: String, value: String)], body: ByteBuffer) {
      self.status = status
      self.headers = headers
      self.body = body
    }

    /// The first value of a header, by its name in any case.
    public func header(_ name: String) -> String? {
      headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
  }

  public enum Failure: Error, CustomStringConvertible, Equatable {
    case unreachable(String)
    case invalidStatus(Int)
    /// The tenant answered, but not with HTTP an app can take.
    case notHTTP(String)
    case tooLarge(Int)
    case deadline
    case closedEarly
    case appGone
    /// A header that cannot be sent as it is (a control character in its value): named, its
    /// value never said.
    case unsendableHeader(String)

    /// The party was reached and answered, but not with an answer that can be taken.
    public var isInvalidAnswer: Bool {
      switch self {
      case .invalidStatus, .notHTTP, .tooLarge, .closedEarly: true
      case .unreachable, .deadline, .appGone, .unsendableHeader: false
      }
    }

    public var description: String {
      switch self {
      case .unreachable(let reason): reason
      case .invalidStatus(let status): "it answered status \(status)"
      case .notHTTP(let reason): "its answer is not HTTP (\(reason))"
      case .tooLarge(let limit): "its answer is larger than \(limit) bytes"
      case .deadline: "no whole answer in time"
      case .closedEarly: "it closed the connection before the answer ended"
      case .appGone: "the app closed its connection first"
      case .unsendableHeader(let name):
        "its \(name) header holds a control character, so it was not sent"
      }
    }
  }

  /// What an answer longer than `largest` is: refused whole (a third party's answer RegScope
  /// reads), or cut to its first `largest` bytes (what an app keeps of its server's answer).
  public enum Overflow: Sendable {
    case refuse
    case keepFirst
  }

  /// A connection's failure in a few words a person can act on (never a type's dump).
  public static func words(_ error: any Error) -> String {
    switch error {
    case let error as NIOConnectionError:
      if let first = error.connectionErrors.first { return words(first.error) }
      if error.dnsAError != nil || error.dnsAAAAError != nil {
        return "the host name does not resolve"
      }
      return "could not connect"
    case ChannelError.connectTimeout(let limit):
      return "could not connect within \(limit.nanoseconds / 1_000_000_000) s"
    case let error as IOError: return SystemCalls.describeNetworkError(error.errnoCode)
    case is ChannelError: return "the connection was dropped"
    default:
      let text = "\(error)"
      let visible = String(
        String.UnicodeScalarView(
          text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
      return visible.count > 200 ? String(visible.prefix(200)) + "…" : visible
    }
  }

  private static let tlsContext: NIOSSLContext? = try? NIOSSLContext(
    configuration: .makeClientConfiguration())

  /// `appClosed` completes when the app's own connection closes: the call is then abandoned
  /// and its connection closed, as when the deadline passes. A header value with a control
  /// character is refused before anything is sent (it would split the request), and never
  /// said: it may be a credential.
  public static func exchange(
    _ target: Target, head: HTTPRequestHead, body: ByteBuffer, deadline: Duration,
    largest: Int, overflow: Overflow = .refuse, appClosed: EventLoopFuture<Void>? = nil
  ) async throws -> Answer {
    if let bad = head.headers.first(where: { field in
      field.value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }
        || field.name.unicodeScalars.contains { $0.value <= 0x20 || $0.value >= 0x7F || $0 == ":" }
    }) {
      throw Failure.unsendableHeader(
        bad.name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 }
          ? bad.name : "(a header name)")
    }
    let group = MultiThreadedEventLoopGroup.singleton
    let loop = group.next()
    let promise = loop.makePromise(of: Answer.self)
    let bootstrap = ClientBootstrap(group: loop)
      .connectTimeout(.seconds(10))
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let sync = channel.pipeline.syncOperations
          if target.tls {
            guard let context = tlsContext else { throw Failure.unreachable("no TLS context") }
            // SNI takes a name, never an address.
            let isAddress =
              target.host.contains(":")
              || target.host.unicodeScalars.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
            let name = isAddress ? nil : target.host
            try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: name))
          }
          try sync.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
          try sync.addHandler(
            AnswerCollector(promise: promise, largest: largest, overflow: overflow))
        }
      }
    // Everything from here runs on the connection's event loop: the request is written the
    // moment the connection opens, never after a hop back to a cooperative pool that a busy
    // process may hold (a peer would wait, and may give up, for a request already due).
    let connected = bootstrap.connect(host: target.host, port: target.port)
    let timeout = TimeAmount.nanoseconds(Int64((deadline / .nanoseconds(1)).rounded()))
    let timer = loop.scheduleTask(in: timeout) {
      promise.fail(Failure.deadline)
      connected.whenSuccess { $0.close(promise: nil) }
    }
    connected.whenComplete { result in
      switch result {
      case .failure(let error):
        // A promise is always completed, even when no connection was made for it.
        promise.fail(Failure.unreachable(words(error)))
      case .success(let channel):
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
      }
    }
    appClosed?.whenComplete { _ in
      promise.fail(Failure.appGone)
      connected.whenSuccess { $0.close(promise: nil) }
    }
    promise.futureResult.whenComplete { _ in
      timer.cancel()
      connected.whenSuccess { $0.close(promise: nil) }
    }
    return try await withTaskCancellationHandler {
      try await promise.futureResult.get()
    } onCancel: {
      promise.fail(CancellationError())
    }
  }
}

/// Collects one answer; refuses a status the app cannot take the moment its head arrives.
private final class AnswerCollector: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let promise: EventLoopPromise<OutboundHTTP.Answer>
  private let largest: Int
  private let overflow: OutboundHTTP.Overflow
  private var head: HTTPResponseHead?
  private var body = ByteBuffer()

  init(
    promise: EventLoopPromise<OutboundHTTP.Answer>, largest: Int, overflow: OutboundHTTP.Overflow
  ) {
    self.promise = promise
    self.largest = largest
    self.overflow = overflow
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      let status = Int(head.status.code)
      guard (200...599).contains(status) else {
        promise.fail(OutboundHTTP.Failure.invalidStatus(status))
        context.close(promise: nil)
        return
      }
      self.head = head
    case .body(var part):
      guard body.readableBytes + part.readableBytes <= largest else {
        if overflow == .keepFirst {
          // The rest is read and dropped: the answer still counts once it has ended.
          if var kept = part.readSlice(length: largest - body.readableBytes) {
            body.writeBuffer(&kept)
          }
          return
        }
        promise.fail(OutboundHTTP.Failure.tooLarge(largest))
        context.close(promise: nil)
        return
      }
      body.writeBuffer(&part)
    case .end:
      guard let head else { return }
      promise.succeed(
        OutboundHTTP.Answer(
          status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) },
          body: body))
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    promise.fail(
      error is HTTPParserError
        ? OutboundHTTP.Failure.notHTTP("\(error)")
        : OutboundHTTP.Failure.unreachable(OutboundHTTP.words(error)))
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(OutboundHTTP.Failure.closedEarly)
    context.fireChannelInactive()
  }
}
