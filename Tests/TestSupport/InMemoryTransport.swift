import Clocks
import RegistrationCore
import RegistrationEngine
import Synchronization

/// A transport that answers in process: at once through `respond`, or, while `holding`, only
/// when the test calls `release` (to model a send in flight without a clock).
public final class InMemoryTransport: RegistrationTransport {
  private struct State {
    var respond: @Sendable (RegistrationRequest) -> SendResult
    var holding = false
    var requests: [RegistrationRequest] = []
    var held: [CheckedContinuation<SendResult, Never>] = []
  }

  private let state: Mutex<State>
  private let arrivals = ChangeSignal()

  public init(
    respond: @escaping @Sendable (RegistrationRequest) -> SendResult = { _ in
      .answered(status: 201, retryAfter: nil)
    }
  ) {
    state = Mutex(State(respond: respond))
  }

  public var requests: [RegistrationRequest] { state.withLock { $0.requests } }

  public func setResponder(_ respond: @escaping @Sendable (RegistrationRequest) -> SendResult) {
    state.withLock { $0.respond = respond }
  }

  /// While true, sends wait for `release`.
  public func setHolding(_ holding: Bool) { state.withLock { $0.holding = holding } }

  public func send(_ request: RegistrationRequest) async -> SendResult {
    let answer: SendResult? = state.withLock { state in
      state.requests.append(request)
      return state.holding ? nil : state.respond(request)
    }
    if let answer {
      arrivals.fire()
      return answer
    }
    return await withCheckedContinuation { continuation in
      state.withLock { $0.held.append(continuation) }
      arrivals.fire()
    }
  }

  /// Waits until `count` requests have arrived (held ones included).
  public func waitForRequests(_ count: Int) async {
    while true {
      let generation = arrivals.generation
      let (arrived, held) = state.withLock { ($0.requests.count, $0.held.count) }
      if arrived >= count && (held > 0 || !state.withLock { $0.holding }) { return }
      await arrivals.wait(after: generation)
    }
  }

  /// Answers the oldest held send.
  public func release(with result: SendResult) {
    let continuation = state.withLock { state in
      state.held.isEmpty ? nil : state.held.removeFirst()
    }
    continuation?.resume(returning: result)
  }
}
