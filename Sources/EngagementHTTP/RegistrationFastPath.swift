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

/// A registration the usual way, answered where the connection reads it: a plain `POST
/// /device/v1/registration` with a small body, a valid token and app, and no fault injected,
/// is received by the server and answered from the event loop, without Hummingbird's
/// request task, router and middlewares (they cost more than the registration's own work,
/// and a fleet is nothing but such requests). Everything else (another route, a refusal, a
/// large or chunked body, a fault, `--any-app`, the relay) is handed on to Hummingbird
/// untouched, which answers it as before. The answer and the capture are the ones the full
/// path gives; `FastPathTests` holds the two to each other.
///
/// It sits after the connection's guards and Hummingbird's connection state, so both see
/// every request and answer. Answers keep their requests' order: while a request handed on
/// is unanswered, the next is handed on too; while one is answered here, what follows waits.
final class RegistrationFastPath: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private struct Reading {
    var head: HTTPRequestHead
    var fields: HeadFields
    var body: ByteBuffer
    var startedAt: Instant
    var started: ContinuousClock.Instant
  }

  private let setup: Setup
  /// The request being read for this path, if one is.
  private var reading: Reading?
  /// Requests handed on whose answer has not ended, and whether one is still being read.
  private var handedOn = 0
  private var handingOn = false
  /// A registration being answered here; what comes meanwhile waits in `held`, and the
  /// connection is not read further until it has been taken.
  private var answering = false
  private var held: Deque<HTTPServerRequestPart> = []
  private var readWaiting = false
  /// The client shut its side (`inputClosed`) while a request of its was still to be
  /// answered here: told on once the requests before are taken, as Hummingbird would see it.
  private var inputClosedWaiting = false
  /// The request answered here asked to close the connection: what follows it is not taken.
  private var closing = false
  /// The server asked its connections to finish (`ChannelShouldQuiesceEvent`) while a
  /// request was being read or answered here: the connection closes after that answer.
  private var quiesceWaiting = false
  /// Where this connection's registrations wait for the server: its event loop's.
  private var inbox: RegistrationInbox?
  /// The URL of this connection's last registration (`url(of:)`).
  private var lastURL: (authority: String, uri: String, url: String)?
  /// A hang fault's late answer, cancelled if the connection goes first.
  private var hang: Scheduled<Void>?

  init(_ setup: Setup) { self.setup = setup }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    guard !closing else { return }
    if answering || !held.isEmpty {
      held.append(part)
      return
    }
    take(part, context: context)
  }

  private func take(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
    if handingOn {
      if case .end = part { handingOn = false }
      context.fireChannelRead(wrapInboundOut(part))
      return
    }
    switch part {
    case .head(let head):
      let fields = HeadFields(head.headers)
      guard handedOn == 0, setup.mayTake(head, fields: fields) else {
        handOn([part], context: context)
        return
      }
      reading = Reading(
        head: head, fields: fields, body: ByteBuffer(),
        startedAt: setup.server.clock.now(), started: .now)
    case .body(var chunk):
      guard var request = reading else {
        context.fireChannelRead(wrapInboundOut(part))
        return
      }
      reading = nil
      // A small body comes in one part: kept as NIO read it, not copied into a buffer of
      // our own (two allocations a registration).
      if request.body.readableBytes == 0 {
        request.body = chunk
      } else {
        request.body.writeBuffer(&chunk)
      }
      reading = request
    case .end:
      guard let request = reading else {
        context.fireChannelRead(wrapInboundOut(part))
        return
      }
      reading = nil
      receive(request, context: context)
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .inputClosed? = event as? ChannelEvent, answering || !held.isEmpty {
      inputClosedWaiting = true
      return
    }
    if event is ChannelShouldQuiesceEvent, answering || reading != nil {
      // The server is stopping: Hummingbird's connection state, after this handler, would
      // close a connection it sees idle, with this path's answer still to go. Closed here
      // once it has gone instead.
      quiesceWaiting = true
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    hang?.cancel()
    hang = nil
  }

  /// Gives the parts to Hummingbird, as a request of its own.
  private func handOn(_ parts: [HTTPServerRequestPart], context: ChannelHandlerContext) {
    handedOn += 1
    handingOn = true
    for part in parts { take(part, context: context) }
  }

  private func receive(_ request: Reading, context: ChannelHandlerContext) {
    let fields = request.fields
    let body = Array(request.body.readableBytesView)
    let validation = EngagementServerCore.validate(
      authorization: fields.authorization, body: body,
      settings: setup.server.validationSettings)
    guard case .valid = validation else {
      // A refusal is the full path's to answer (and to show against its device).
      let parts: [HTTPServerRequestPart] =
        request.body.readableBytes > 0
        ? [.head(request.head), .body(request.body), .end(nil)] : [.head(request.head), .end(nil)]
      handOn(parts, context: context)
      if quiesceWaiting {
        // Hummingbird's connection state has the request now: it closes after answering.
        quiesceWaiting = false
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
      }
      return
    }
    answering = true
    // `Connection: close`, or HTTP/1.0 without keep-alive: the connection ends with this answer.
    closing = fields.closes || !request.head.isKeepAlive
    setup.answers.inFlight.add(1, ordering: .relaxed)
    let facts = RequestFacts(
      userAgent: fields.userAgent, sdkVersion: fields.sdkVersion,
      subscriberToken: fields.subscriberToken)
    let loop = context.eventLoop
    let bound = NIOLoopBound((self, context), eventLoop: loop)
    let answers = setup.answers
    let waiting = RegistrationInbox.Waiting(validation, facts: facts) { answer, token in
      let respond: @Sendable () -> Void = {
        bound.value.0.answer(answer, token: token, to: request, body: body, context: bound.value.1)
        // Settled once the answer is written, not before: a stopping server waits for it.
        answers.finished()
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

  private func answer(
    _ answer: ServerAnswer, token: String?, to request: Reading, body: [UInt8],
    context: ChannelHandlerContext
  ) {
    var exchange = CapturedExchange(
      startedAt: request.startedAt, method: request.head.method.rawValue,
      url: url(of: request),
      requestHeaders: request.fields.fields, requestBody: body, status: nil)
    switch answer {
    case .respond(let status, let answerBody, let retryAfter):
      let fields = AnswerFields(length: answerBody.count, retryAfter: retryAfter, token: token)
      exchange.status = status
      exchange.responseHeaders = fields.recorded
      exchange.duration = CaptureMiddleware.seconds(since: request.started)
      if context.channel.isActive {
        exchange.responseBody = answerBody
      } else {
        exchange.status = nil
        exchange.error = CaptureMiddleware.dropped
      }
      // Recorded and counted before the answer goes, as the full path records it: a client
      // that has read its answer may ask for either.
      setup.recorder.record(exchange)
      setup.answers.count.add(1, ordering: .relaxed)
      // As `HTTPTypes`' conversion writes it: its reason phrase, the fields in order. The
      // conversation handler before this one answers in the request's version.
      let head = HTTPResponseHead(
        version: .http1_1,
        status: HTTPResponseStatus(
          statusCode: status, reasonPhrase: HTTPResponse.Status(code: status).reasonPhrase),
        headers: fields.wire(date: HTTPDateCache.now))
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      var answerBytes = context.channel.allocator.buffer(capacity: answerBody.count)
      answerBytes.writeBytes(answerBody)
      context.write(wrapOutboundOut(.body(.byteBuffer(answerBytes))), promise: nil)
      if quiesceWaiting {
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
      } else {
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      }
      answered(context: context)
    case .hang:
      // A fault injected after the head was read: answered as the full path does, late.
      let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      let delay = EngagementRoutes.hangDelay(setup.options).timeAmount
      self.hang = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
        bound.value.0.answer(
          .respond(status: 504, body: EngagementRoutes.hungBody, retryAfter: nil),
          token: nil, to: request, body: body, context: bound.value.1)
      }
    case .drop, .refuse:
      // As the full path does: the head may go out, the body never completes.
      exchange.status = nil
      exchange.error = CaptureMiddleware.dropped
      exchange.duration = CaptureMiddleware.seconds(since: request.started)
      setup.recorder.record(exchange)
      context.writeAndFlush(
        wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok))), promise: nil)
      context.close(promise: nil)
    }
  }

  /// The request's URL as the capture shows it. A connection asks for the same one again
  /// and again (its host and the registration route): made once, not twice a registration.
  private func url(of request: Reading) -> String {
    let authority = request.fields.authority ?? "127.0.0.1"
    if let known = lastURL, known.authority == authority, known.uri == request.head.uri {
      return known.url
    }
    let url = "\(setup.scheme)://\(authority)\(request.head.uri)"
    lastURL = (authority, request.head.uri, url)
    return url
  }

  /// The answer is out: what waited is read now, in order.
  private func answered(context: ChannelHandlerContext) {
    answering = false
    hang = nil
    // The server is stopping: nothing more is taken (the answer's end closes the connection).
    if quiesceWaiting { closing = true }
    if closing || !context.channel.isActive {
      // The connection closes after this answer: nothing sent after it is taken.
      held.removeAll()
      return
    }
    while !answering, let part = held.popFirst() { take(part, context: context) }
    guard !answering, held.isEmpty else { return }
    if inputClosedWaiting {
      inputClosedWaiting = false
      context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }
    if readWaiting {
      readWaiting = false
      context.read()
    }
  }

  /// Reading stops only once a request has had to wait (a pipelining client): stopping and
  /// starting again on every answer cost a system call each.
  func read(context: ChannelHandlerContext) {
    guard held.isEmpty else {
      readWaiting = true
      return
    }
    context.read()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data), handedOn > 0 { handedOn -= 1 }
    context.write(data, promise: promise)
  }
}
