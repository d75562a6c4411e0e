import Clocks
import DequeModule
import EngagementCore
import EngagementServer
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import RegistrationCore
import Synchronization

/// A registration the usual way, answered where the connection reads it: a `POST
/// /device/v1/registration` of HTTP/1 with a small body of a declared length, and no fault
/// injected, is received by the server and answered from the event loop, without Hummingbird's
/// request task, router and middlewares (they cost more than the registration's own work,
/// and a fleet is nothing but such requests). It answers every such request itself, refusals
/// too, by the front's rules (`FrontRules`), so a refused request is checked once. Everything
/// else (another route, a large or chunked body, `Expect`, a fault set before the head came,
/// `--any-app`, the relay) is handed on to Hummingbird untouched. The answer and the capture
/// are the ones the full path gives; `FastPathTests` holds the two to each other.
///
/// It sits after the connection's guards and before Hummingbird's conversion to `HTTPTypes`
/// and its connection state (`HTTP1ServerChannel`): the guards see every request and answer;
/// Hummingbird's state sees only what is handed on, so this handler closes the connections
/// it answers last (a stop, a refused token). Answers keep their requests' order: while a
/// request handed on is unanswered, the next is handed on too; while one is answered here,
/// what follows waits (`FastPathState`).
final class RegistrationFastPath: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let setup: Setup
  private var state = FastPathState.idle
  /// Where this connection's registrations wait for the server: its event loop's.
  private var inbox: RegistrationInbox?
  /// The URL of this connection's last registration (`url(of:)`).
  private var lastURL: (authority: String?, uri: String, url: String)?
  /// A hang fault's late answer, cancelled if the connection goes first.
  private var hang: Scheduled<Void>?

  init(_ setup: Setup) { self.setup = setup }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    act(on: state.read(part) { setup.request(for: $0) }, part, context: context)
  }

  private func act(
    on inbound: FastPathState.Inbound, _ part: HTTPServerRequestPart,
    context: ChannelHandlerContext
  ) {
    switch inbound {
    case .forward: context.fireChannelRead(wrapInboundOut(part))
    case .kept, .held, .dropped: break
    case .answer(let request): answer(request, context: context)
    case .illegal: context.close(promise: nil)
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .inputClosed? = event as? ChannelEvent, !state.inputClosed() { return }
    // The server is stopping: Hummingbird's connection state, after this handler, would
    // close a connection it sees idle, with this path's answer still to go. Closed here
    // once it has gone instead.
    if event is ChannelShouldQuiesceEvent, !state.quiesce() { return }
    context.fireUserInboundEventTriggered(event)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    // The connection went before a hang's late answer: nothing is left to write.
    if let hang {
      hang.cancel()
      self.hang = nil
      setup.answers.finished()
    }
  }

  func read(context: ChannelHandlerContext) {
    if state.mayRead() { context.read() }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { state.handedOnAnswered() }
    context.write(data, promise: promise)
  }

  /// A whole registration read: refused by the front's rules at once, or validated and
  /// given to the server, and answered when it has answered.
  private func answer(_ request: FastPathRequest, context: ChannelHandlerContext) {
    let fields = request.fields
    if let refusal = setup.rules.refusal(
      authority: fields.authority, hostRepeated: fields.hostRepeated,
      contentLength: fields.contentLength)
    {
      // As the full path's middleware: before any route, so not captured.
      write(
        status: refusal.status,
        fields: FrontRules.answerFields(length: refusal.body.count, closes: refusal.closes),
        body: refusal.body, closes: refusal.closes, context: context)
      return
    }
    // The body is within both limits (`Setup.request(for:)`, the rule on its length).
    let body = Array(request.body.readableBytesView)
    let (validation, closes) = setup.rules.registration(
      authorization: fields.authorization,
      refused: EngagementServerCore.authorize(
        fields.authorization, settings: setup.server.validationSettings),
      body: body, settings: setup.server.validationSettings)
    receive(validation, closes: closes, request, body: body, context: context)
  }

  private func receive(
    _ validation: EngagementServerCore.Validation, closes: Bool, _ request: FastPathRequest,
    body: [UInt8], context: ChannelHandlerContext
  ) {
    setup.answers.inFlight.add(1, ordering: .relaxed)
    let fields = request.fields
    let facts = RequestFacts(
      userAgent: fields.userAgent, sdkVersion: fields.sdkVersion,
      subscriberToken: fields.subscriberToken)
    let loop = context.eventLoop
    let bound = NIOLoopBound((self, context), eventLoop: loop)
    let answers = setup.answers
    let waiting = RegistrationInbox.Waiting(validation, facts: facts) { answer, token in
      let respond: @Sendable () -> Void = {
        let (handler, context) = bound.value
        // Settled once the answer is written, not before: a stopping server waits for it.
        // A hang's late answer settles when it is written, or when the connection goes.
        if handler.write(answer, token: token, closes: closes, to: request, body: body, context) {
          answers.finished()
        }
      }
      // The batch's task runs on this connection's loop (its inbox is the loop's).
      if loop.inEventLoop { respond() } else { loop.execute(respond) }
    }
    let inbox = self.inbox ?? setup.inboxes.inbox(for: loop)
    self.inbox = inbox
    if inbox.submit(waiting) {
      Task(executorPreference: EventLoopTaskExecutor(loop)) { await inbox.deliver() }
    }
  }

  /// Writes the server's answer, and records it as the full path does. False when it is
  /// left for later (a hang fault's late answer).
  private func write(
    _ answer: ServerAnswer, token: String?, closes: Bool, to request: FastPathRequest,
    body: [UInt8], _ context: ChannelHandlerContext
  ) -> Bool {
    var exchange = CapturedExchange(
      startedAt: request.startedAt, method: request.head.method.rawValue,
      url: url(of: request), requestHeaders: request.fields.fields, requestBody: body,
      status: nil)
    switch answer {
    case .respond(let status, let answerBody, let retryAfter):
      let fields = FrontRules.answerFields(
        length: answerBody.count, retryAfter: retryAfter, token: token, closes: closes)
      FrontRules.complete(
        &exchange, status: status, headers: fields, body: answerBody, since: request.started,
        delivered: context.channel.isActive)
      // Recorded and counted before the answer goes, as the full path records it: a client
      // that has read its answer may ask for either.
      setup.recorder.record(exchange)
      setup.answers.count.add(1, ordering: .relaxed)
      write(status: status, fields: fields, body: answerBody, closes: closes, context: context)
      return true
    case .hang:
      // A fault injected after the head was read: answered as the full path does, late.
      let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      let delay = EngagementRoutes.hangDelay(setup.options).timeAmount
      let answers = setup.answers
      hang = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
        let (handler, context) = bound.value
        handler.hang = nil
        _ = handler.write(
          .respond(status: 504, body: EngagementRoutes.hungBody, retryAfter: nil), token: nil,
          closes: closes, to: request, body: body, context)
        answers.finished()
      }
      return false
    case .drop, .refuse:
      // As the full path does: the head may go out, the body never completes.
      exchange.error = FrontRules.dropped
      exchange.duration = FrontRules.seconds(since: request.started)
      setup.recorder.record(exchange)
      _ = state.answered(closes: true)
      context.writeAndFlush(
        wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok))), promise: nil)
      context.close(promise: nil)
      return true
    }
  }

  /// Writes an answer to the registration taken here, then takes what waited for it, or
  /// closes the connection: after a refused token (as `EngagementRoutes.closingUnread`), or
  /// when the server is stopping (the conversation handler closes after a request that asked).
  private func write(
    status: Int, fields: [HeaderField], body: [UInt8], closes: Bool,
    context: ChannelHandlerContext
  ) {
    let after = state.answered(closes: closes)
    // As `HTTPTypes`' conversion writes it: its reason phrase, the fields in order, the date
    // last. The conversation handler before this one answers in the request's version.
    var headers = HTTPHeaders()
    headers.reserveCapacity(fields.count + 1)
    for field in fields { headers.add(name: field.name, value: field.value) }
    headers.add(name: "Date", value: HTTPDateCache.now)
    let head = HTTPResponseHead(
      version: .http1_1,
      status: HTTPResponseStatus(
        statusCode: status, reasonPhrase: HTTPResponse.Status(code: status).reasonPhrase),
      headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    var answerBytes = context.channel.allocator.buffer(capacity: body.count)
    answerBytes.writeBytes(body)
    context.write(wrapOutboundOut(.body(.byteBuffer(answerBytes))), promise: nil)
    guard case .resume(let waiting) = after else {
      let written = context.eventLoop.makePromise(of: Void.self)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
      let channel = context.channel
      written.futureResult.assumeIsolated().whenComplete { _ in
        if closes {
          EngagementRoutes.closeUnread(channel)
        } else {
          channel.close(promise: nil)
        }
      }
      return
    }
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    resume(waiting, context: context)
  }

  /// The answer is out: what waited is taken now, in order, until one is answered here again.
  private func resume(_ waiting: FastPathState.Waiting, context: ChannelHandlerContext) {
    guard context.channel.isActive else { return }
    var waiting = waiting
    while let part = waiting.held.popFirst() {
      act(on: state.read(part) { setup.request(for: $0) }, part, context: context)
      switch state {
      case .answering:
        state.requeue(waiting)
        return
      case .closing: return
      case .idle, .reading, .handingOn: continue
      }
    }
    if waiting.inputClosed { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
    if waiting.readWaiting { context.read() }
  }

  /// The request's URL as the capture shows it. A connection asks for the same one again
  /// and again (its host and the registration route): made once, not twice a registration.
  private func url(of request: FastPathRequest) -> String {
    let authority = request.fields.authority
    if let known = lastURL, known.authority == authority, known.uri == request.head.uri {
      return known.url
    }
    let url = setup.rules.url(authority: authority, uri: request.head.uri)
    lastURL = (authority, request.head.uri, url)
    return url
  }
}
