import Clocks
import NIOCore
import NIOHTTP1
import RegistrationCore
import Testing

@testable import EngagementHTTP

/// The fast path's connection state, one transition at a time: which path takes each part,
/// what waits while an answer is worked out here, when the connection closes, and the parts
/// out of HTTP/1's order, which close it.
@Suite("the fast path's connection state")
struct FastPathStateTests {
  typealias State = FastPathState

  static func head(close: Bool = false, version: HTTPVersion = .http1_1) -> HTTPRequestHead {
    var headers = HTTPHeaders([("host", "127.0.0.1"), ("content-length", "2")])
    if close { headers.add(name: "connection", value: "close") }
    return HTTPRequestHead(
      version: version, method: .POST, uri: "/device/v1/registration", headers: headers)
  }

  static func request(_ head: HTTPRequestHead) -> FastPathRequest {
    FastPathRequest(
      head: head, fields: HeadFields(head.headers), body: ByteBuffer(), startedAt: Instant(0),
      started: .now)
  }

  /// Takes every head, as a registration the fast path answers.
  static func mine(_ head: HTTPRequestHead) -> FastPathRequest? { request(head) }
  /// Takes none, as another route.
  static func theirs(_ head: HTTPRequestHead) -> FastPathRequest? { nil }

  static func name(_ state: State) -> String {
    switch state {
    case .idle: "idle"
    case .reading(_, let quiesce): quiesce ? "reading, quiesce" : "reading"
    case .answering(let waiting): "answering \(waiting.held.count)"
    case .handingOn(let unanswered, let reading): "handingOn \(unanswered) \(reading)"
    case .closing: "closing"
    }
  }

  static func name(_ inbound: State.Inbound) -> String {
    switch inbound {
    case .forward: "forward"
    case .kept: "kept"
    case .held: "held"
    case .dropped: "dropped"
    case .answer(let request): "answer \(request.body.readableBytes)"
    case .illegal: "illegal"
    }
  }

  /// The state after reading a registration's head, body and end here.
  static func answering(close: Bool = false) -> State {
    var state = State.idle
    _ = state.read(.head(head(close: close)), taking: mine)
    _ = state.read(.body(ByteBuffer(string: "{}")), taking: mine)
    _ = state.read(.end(nil), taking: mine)
    return state
  }

  @Test("a registration taken here: read, its body kept as it came, answered, then idle")
  func taken() {
    var state = State.idle
    #expect(Self.name(state.read(.head(Self.head()), taking: Self.mine)) == "kept")
    #expect(Self.name(state) == "reading")
    #expect(Self.name(state.read(.body(ByteBuffer(string: "{")), taking: Self.mine)) == "kept")
    #expect(Self.name(state.read(.body(ByteBuffer(string: "}")), taking: Self.mine)) == "kept")
    #expect(Self.name(state.read(.end(nil), taking: Self.mine)) == "answer 2")
    #expect(Self.name(state) == "answering 0")
    guard case .resume(let waiting) = state.answered(closes: false) else {
      Issue.record("not resumed")
      return
    }
    #expect(waiting.held.isEmpty && !waiting.inputClosed && !waiting.readWaiting)
    #expect(Self.name(state) == "idle")
  }

  @Test("a request of Hummingbird's: its parts go on, and the next goes on while it is unanswered")
  func handedOn() {
    var state = State.idle
    #expect(Self.name(state.read(.head(Self.head()), taking: Self.theirs)) == "forward")
    #expect(Self.name(state) == "handingOn 1 true")
    #expect(Self.name(state.read(.body(ByteBuffer(string: "{}")), taking: Self.mine)) == "forward")
    #expect(Self.name(state.read(.end(nil), taking: Self.mine)) == "forward")
    #expect(Self.name(state) == "handingOn 1 false")
    // One the fast path would take, while the one before is unanswered: handed on too.
    #expect(Self.name(state.read(.head(Self.head()), taking: Self.mine)) == "forward")
    #expect(Self.name(state) == "handingOn 2 true")
    state.handedOnAnswered()
    #expect(Self.name(state) == "handingOn 1 true")
    // Answered before its body was read (an early refusal): idle once the body has gone on.
    state.handedOnAnswered()
    #expect(Self.name(state) == "handingOn 0 true")
    #expect(Self.name(state.read(.end(nil), taking: Self.mine)) == "forward")
    #expect(Self.name(state) == "idle")
  }

  @Test("while an answer is worked out here, what comes waits, and reading stops")
  func waits() {
    var state = Self.answering()
    let readsWhileNothingWaits = state.mayRead()
    #expect(readsWhileNothingWaits)
    #expect(Self.name(state.read(.head(Self.head()), taking: Self.mine)) == "held")
    let readsWhileHeld = state.mayRead()
    #expect(!readsWhileHeld)
    #expect(Self.name(state.read(.end(nil), taking: Self.mine)) == "held")
    let toldAtOnce = state.inputClosed()
    #expect(!toldAtOnce)
    #expect(Self.name(state) == "answering 2")
    guard case .resume(var waiting) = state.answered(closes: false) else {
      Issue.record("not resumed")
      return
    }
    #expect(waiting.held.count == 2 && waiting.readWaiting && waiting.inputClosed)
    // Taking what waited: the head is taken here again, and the rest waits for its answer.
    let first = waiting.held.removeFirst()
    #expect(Self.name(state.read(first, taking: Self.mine)) == "kept")
    let end = waiting.held.removeFirst()
    #expect(Self.name(state.read(end, taking: Self.mine)) == "answer 0")
    state.requeue(waiting)
    guard case .answering(let again) = state else {
      Issue.record("not answering")
      return
    }
    #expect(again.held.isEmpty && again.readWaiting && again.inputClosed)
  }

  @Test(
    "the connection closes after the answer: a request that asked, a refusal, or a stop",
    arguments: ["close", "HTTP/1.0", "refused", "quiesce while answering", "quiesce while reading"])
  func closes(_ why: String) {
    var state = State.idle
    let head =
      why == "HTTP/1.0" ? Self.head(version: .http1_0) : Self.head(close: why == "close")
    _ = state.read(.head(head), taking: Self.mine)
    if why == "quiesce while reading" {
      let toldOn = state.quiesce()
      #expect(!toldOn)
      #expect(Self.name(state) == "reading, quiesce")
    }
    _ = state.read(.end(nil), taking: Self.mine)
    if why == "quiesce while answering" {
      let toldOn = state.quiesce()
      #expect(!toldOn)
    }
    // What the client sends after is not taken.
    if why != "refused" {
      #expect(Self.name(state.read(.head(Self.head()), taking: Self.mine)) == "dropped")
    }
    guard case .close = state.answered(closes: why == "refused") else {
      Issue.record("\(why): not closed")
      return
    }
    #expect(Self.name(state) == "closing")
    #expect(Self.name(state.read(.head(Self.head()), taking: Self.mine)) == "dropped")
    let (quiesce, inputClosed) = (state.quiesce(), state.inputClosed())
    #expect(quiesce && inputClosed)
  }

  @Test("with nothing of its own under way, a stop and the end of input go on to Hummingbird")
  func eventsGoOn() {
    for start in [State.idle, .handingOn(unanswered: 1, reading: false)] {
      var state = start
      let told = [state.quiesce(), state.inputClosed(), state.mayRead()]
      #expect(told == [true, true, true], "\(Self.name(start))")
      #expect(Self.name(state) == Self.name(start))
    }
    // While a body is read here, the end of input goes on (the request can never end).
    var reading = State.idle
    _ = reading.read(.head(Self.head()), taking: Self.mine)
    let told = reading.inputClosed()
    #expect(told)
  }

  @Test(
    "parts out of HTTP/1's order close the connection",
    arguments: [
      ("idle", "body"), ("idle", "end"), ("reading", "head"), ("handed on, read", "body"),
      ("handed on, read", "end"), ("handed on, reading", "head"),
    ])
  func illegal(_ from: String, _ part: String) {
    var state: State =
      switch from {
      case "idle": .idle
      case "reading": .reading(Self.request(Self.head()), quiesce: false)
      case "handed on, read": .handingOn(unanswered: 1, reading: false)
      default: .handingOn(unanswered: 1, reading: true)
      }
    let read: HTTPServerRequestPart =
      switch part {
      case "head": .head(Self.head())
      case "body": .body(ByteBuffer(string: "x"))
      default: .end(nil)
      }
    #expect(Self.name(state.read(read, taking: Self.mine)) == "illegal")
    #expect(Self.name(state) == "closing")
  }

  @Test("an answer or a handed-on end with nothing of the kind under way changes nothing")
  func strayEnds() {
    for start in [State.idle, .closing, .reading(Self.request(Self.head()), quiesce: false)] {
      var state = start
      guard case .illegal = state.answered(closes: false) else {
        Issue.record("\(Self.name(start)): answered")
        continue
      }
      state.handedOnAnswered()
      state.requeue(State.Waiting(readWaiting: true))
      #expect(Self.name(state) == Self.name(start))
    }
    var answering = Self.answering()
    answering.handedOnAnswered()
    #expect(Self.name(answering) == "answering 0")
  }
}
