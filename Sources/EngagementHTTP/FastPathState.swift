import Clocks
import DequeModule
import NIOCore
import NIOHTTP1
import RegistrationCore

/// A registration the fast path took: its head as read, its body so far.
struct FastPathRequest {
  var head: HTTPRequestHead
  var fields: HeadFields
  var body: ByteBuffer
  /// The server's time (the capture's) and the wall's (its duration) when the head came.
  var startedAt: Instant
  var started: ContinuousClock.Instant
}

/// Where a connection's fast path is (`RegistrationFastPath`), as one value: each case is
/// what the handler is doing, each transition a method that returns what the handler must do.
/// The methods are pure (no channel, no I/O), so every transition, legal or not, is tested on
/// its own (`FastPathStateTests`).
enum FastPathState {
  /// Nothing of this handler's under way: the next head decides which path takes it.
  case idle
  /// A registration's head taken here, its body being read. `quiesce`: the server asked its
  /// connections to finish meanwhile.
  case reading(FastPathRequest, quiesce: Bool)
  /// A registration taken here, its answer not yet written: what the client sends meanwhile
  /// waits in order, and reading stops while anything waits.
  case answering(Waiting)
  /// Requests given to Hummingbird whose answer has not ended (`unanswered`), and whether
  /// the last is still being read (its parts go on too). While any is unanswered the next
  /// request goes on as well, so answers keep their requests' order.
  case handingOn(unanswered: Int, reading: Bool)
  /// Nothing more is taken: the connection closes after the answer written here.
  case closing

  /// What waits while a registration is answered here.
  struct Waiting {
    var held: Deque<HTTPServerRequestPart> = []
    /// `read` was asked for while parts were held: asked again once they are taken.
    var readWaiting = false
    /// The client shut its side: told on once the requests before are taken, as
    /// Hummingbird would see it.
    var inputClosed = false
    /// The server asked its connections to finish: the connection closes after this answer.
    var quiesce = false
    /// The request asked to close (`Connection: close`, HTTP/1.0 without keep-alive): what
    /// follows it is not taken.
    var lastRequest = false
  }

  /// What to do with a part read from the connection.
  enum Inbound {
    /// Give it to Hummingbird.
    case forward
    /// Kept here: the head or body of a registration being read.
    case kept
    /// Waits for the answer being worked out here.
    case held
    /// Not taken: the connection is closing.
    case dropped
    /// A whole registration, to be answered here.
    case answer(FastPathRequest)
    /// A part out of HTTP/1's order (NIO's parser never sends one): the connection is closed.
    case illegal
  }

  /// What to do once the answer written here is out.
  enum AfterAnswer {
    /// Close the connection once the answer is written; what waited is dropped.
    case close
    /// Take what waited, in order (`read(_:taking:)` each, `requeue` the rest if one is
    /// answered here again), then tell the end of input and ask to read, when asked.
    case resume(Waiting)
    /// No answer of this handler's was under way: nothing to do.
    case illegal
  }

  /// A part read from the connection. `taking` says whether a head is the fast path's, and
  /// makes its request; it is asked only when no request of either path is under way.
  mutating func read(
    _ part: HTTPServerRequestPart, taking: (HTTPRequestHead) -> FastPathRequest?
  ) -> Inbound {
    // Bound from `self`, then `self` let go of, so what is appended to is not copied.
    switch self {
    case .closing:
      return .dropped
    case .answering(var waiting):
      guard !waiting.lastRequest, !waiting.quiesce else { return .dropped }
      self = .idle
      waiting.held.append(part)
      self = .answering(waiting)
      return .held
    case .idle:
      guard case .head(let head) = part else { return illegal() }
      if let request = taking(head) {
        self = .reading(request, quiesce: false)
        return .kept
      }
      self = .handingOn(unanswered: 1, reading: true)
      return .forward
    case .handingOn(let unanswered, let reading):
      switch (part, reading) {
      case (.head, false): self = .handingOn(unanswered: unanswered + 1, reading: true)
      case (.body, true): break
      case (.end, true):
        self = unanswered == 0 ? .idle : .handingOn(unanswered: unanswered, reading: false)
      case (.head, true), (.body, false), (.end, false): return illegal()
      }
      return .forward
    case .reading(var request, let quiesce):
      switch part {
      case .head: return illegal()
      case .body(var chunk):
        self = .idle
        // A small body comes in one part: kept as NIO read it, not copied into a buffer of
        // our own (two allocations a registration).
        if request.body.readableBytes == 0 {
          request.body = chunk
        } else {
          request.body.writeBuffer(&chunk)
        }
        self = .reading(request, quiesce: quiesce)
        return .kept
      case .end:
        self = .answering(
          Waiting(
            quiesce: quiesce,
            lastRequest: request.fields.closes || !request.head.isKeepAlive))
        return .answer(request)
      }
    }
  }

  private mutating func illegal() -> Inbound {
    self = .closing
    return .illegal
  }

  /// The end of an answer Hummingbird wrote went out.
  mutating func handedOnAnswered() {
    guard case .handingOn(let unanswered, let reading) = self, unanswered > 0 else { return }
    self =
      unanswered == 1 && !reading ? .idle : .handingOn(unanswered: unanswered - 1, reading: reading)
  }

  /// The answer to the registration taken here is being written; `closes`: the connection
  /// ends with it whatever the client asked (a refused token, a dropped answer).
  mutating func answered(closes: Bool) -> AfterAnswer {
    guard case .answering(let waiting) = self else { return .illegal }
    if closes || waiting.quiesce || waiting.lastRequest {
      self = .closing
      return .close
    }
    self = .idle
    return .resume(waiting)
  }

  /// What waited and was not yet taken when a registration came to be answered here again:
  /// it waits for that answer now.
  mutating func requeue(_ rest: Waiting) {
    guard case .answering(var waiting) = self else { return }
    self = .idle
    waiting.held = rest.held
    waiting.readWaiting = waiting.readWaiting || rest.readWaiting
    waiting.inputClosed = waiting.inputClosed || rest.inputClosed
    self = .answering(waiting)
  }

  /// The client shut its side. True: tell Hummingbird now; false: told once the answer
  /// under way here is out (or never, if the connection closes with it).
  mutating func inputClosed() -> Bool {
    guard case .answering(var waiting) = self else { return true }
    waiting.inputClosed = true
    self = .answering(waiting)
    return false
  }

  /// The server asks its connections to finish. True: Hummingbird's connection state, after
  /// this handler, is told (it closes an idle connection, or one after the answer it owes);
  /// false: a registration is under way here, and the connection closes after its answer.
  mutating func quiesce() -> Bool {
    switch self {
    case .reading(let request, _):
      self = .reading(request, quiesce: true)
      return false
    case .answering(var waiting):
      waiting.quiesce = true
      self = .answering(waiting)
      return false
    case .idle, .handingOn, .closing:
      return true
    }
  }

  /// Whether to read more now. Reading stops only once a request has had to wait (a
  /// pipelining client): stopping and starting again on every answer cost a system call each.
  mutating func mayRead() -> Bool {
    guard case .answering(var waiting) = self, !waiting.held.isEmpty else { return true }
    waiting.readWaiting = true
    self = .answering(waiting)
    return false
  }
}
