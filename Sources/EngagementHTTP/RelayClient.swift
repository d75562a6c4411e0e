import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One exchange with the tenant on a connection of its own: the request, then the whole
/// answer, within one deadline. Written on SwiftNIO's HTTP/1.1 codec rather than on
/// AsyncHTTPClient, whose connection state machine traps when a server answers a status below
/// 100 (a hostile tenant must not take the relay down), and whose deadline stops at the
/// answer's head. A connection per exchange means no pool to starve: slow tenant answers hold
/// only their own connection.
enum RelayClient {
  struct Target: Sendable {
    var host: String
    var port: Int
    var tls: Bool
    /// The path every request's path is put under (`/base`), without a trailing slash.
    var basePath: String
  }

  enum Failure: Error, CustomStringConvertible {
    case unreachable(String)
    case invalidStatus(Int)
    /// The tenant answered, but not with HTTP an app can take.
    case notHTTP(String)
    case tooLarge(Int)
    case deadline
    case closedEarly
    case appGone

    /// The tenant was reached and answered, but not with an answer the app can be given.
    var isInvalidAnswer: Bool {
      switch self {
      case .invalidStatus, .notHTTP, .tooLarge, .closedEarly: true
      case .unreachable, .deadline, .appGone: false
      }
    }

    var description: String {
      switch self {
      case .unreachable(let reason): reason
      case .invalidStatus(let status): "it answered status \(status)"
      case .notHTTP(let reason): "its answer is not HTTP (\(reason))"
      case .tooLarge(let limit): "its answer is larger than \(limit) bytes"
      case .deadline: "no whole answer in time"
      case .closedEarly: "it closed the connection before the answer ended"
      case .appGone: "the app closed its connection first"
      }
    }
  }

  private static let tlsContext: NIOSSLContext? = try? NIOSSLContext(
    configuration: .makeClientConfiguration())

  /// `appClosed` completes when the app's own connection closes: the tenant call is then
  /// abandoned and its connection closed, as when the deadline passes.
  static func exchange(
    _ target: Target, head: HTTPRequestHead, body: ByteBuffer, deadline: Duration,
    largest: Int, appClosed: EventLoopFuture<Void>? = nil
  ) async throws -> Upstream.Answer {
    let group = MultiThreadedEventLoopGroup.singleton
    let loop = group.next()
    let promise = loop.makePromise(of: Upstream.Answer.self)
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
          try sync.addHandler(AnswerCollector(promise: promise, largest: largest))
        }
      }
    let channel: any Channel
    do {
      channel = try await bootstrap.connect(host: target.host, port: target.port).get()
    } catch {
      // A promise is always completed, even when no connection was made for it.
      promise.fail(Failure.unreachable("\(error)"))
      throw Failure.unreachable("\(error)")
    }
    let timeout = TimeAmount.nanoseconds(Int64((deadline / .nanoseconds(1)).rounded()))
    let timer = loop.scheduleTask(in: timeout) {
      promise.fail(Failure.deadline)
      channel.close(promise: nil)
    }
    appClosed?.whenComplete { _ in
      promise.fail(Failure.appGone)
      channel.close(promise: nil)
    }
    channel.write(HTTPClientRequestPart.head(head), promise: nil)
    channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    return try await withTaskCancellationHandler {
      defer {
        timer.cancel()
        channel.close(promise: nil)
      }
      return try await promise.futureResult.get()
    } onCancel: {
      promise.fail(CancellationError())
      channel.close(promise: nil)
    }
  }
}

/// Collects one answer; refuses a status the app cannot take the moment its head arrives.
private final class AnswerCollector: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let promise: EventLoopPromise<Upstream.Answer>
  private let largest: Int
  private var head: HTTPResponseHead?
  private var body = ByteBuffer()

  init(promise: EventLoopPromise<Upstream.Answer>, largest: Int) {
    self.promise = promise
    self.largest = largest
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      let status = Int(head.status.code)
      guard (200...599).contains(status) else {
        promise.fail(RelayClient.Failure.invalidStatus(status))
        context.close(promise: nil)
        return
      }
      self.head = head
    case .body(var part):
      guard body.readableBytes + part.readableBytes <= largest else {
        promise.fail(RelayClient.Failure.tooLarge(largest))
        context.close(promise: nil)
        return
      }
      body.writeBuffer(&part)
    case .end:
      guard let head else { return }
      promise.succeed(
        Upstream.Answer(
          status: Int(head.status.code),
          headers: head.headers.filter { !Upstream.notRelayed.contains($0.name.lowercased()) }
            .map { ($0.name, $0.value) }, body: body))
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    promise.fail(
      error is HTTPParserError
        ? RelayClient.Failure.notHTTP("\(error)") : RelayClient.Failure.unreachable("\(error)"))
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(RelayClient.Failure.closedEarly)
    context.fireChannelInactive()
  }
}
