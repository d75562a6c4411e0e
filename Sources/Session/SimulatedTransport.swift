import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import SessionValues
import Synchronization

/// The network between the engine and the in-process server, in the engine's time. The server
/// receives a registration when it is sent; the answer comes back after `latency`. A hang costs
/// the request's whole time-out, a refused connection nothing. Because it waits on the shared
/// clock, "an edit while a send is in flight" happens in virtual time exactly as in real time.
public final class SimulatedTransport: RegistrationTransport {
  private struct State {
    var arrivals = 0
    var answerDueAt: Instant?
  }

  public let server: LocalEngagementServer
  public let clock: any EngineClock
  public let latency: Double
  private let state = Mutex(State())
  private let arrived = ChangeSignal()

  public init(server: LocalEngagementServer, clock: any EngineClock, latency: Double = 0) {
    self.server = server
    self.clock = clock
    self.latency = latency
  }

  /// How many sends have reached the server.
  public var arrivals: Int { state.withLock { $0.arrivals } }

  /// When the answer to the send on the wire comes back, if one is on the wire.
  public var answerDueAt: Instant? { state.withLock { $0.answerDueAt } }

  public func send(_ request: RegistrationRequest) async -> SendResult {
    let answer = await server.receive(
      authorization: request.header("Authorization"), body: request.body)
    let result: SendResult
    var wait = latency
    switch answer {
    case .respond(let status, let body, let retryAfter):
      // Read as the SDK reads the header the HTTP front would write (whole seconds).
      let header = retryAfter.map { NumberText.compact($0.rounded(.up)) }
      result = .answered(
        status: status,
        retryAfter: header.flatMap { request.retryAfter(header: $0, now: Date()) },
        body: String(decoding: body, as: UTF8.self))
    case .hang:
      wait = request.timeout
      result = .transportFailed("timed out after \(DurationText.describe(request.timeout))")
    case .drop:
      result = .transportFailed("the connection was dropped")
    case .refuse:
      wait = 0
      result = .transportFailed("connection refused")
    }
    let dueAt = clock.now() + wait
    state.withLock { state in
      state.arrivals += 1
      state.answerDueAt = wait > 0 ? dueAt : nil
    }
    arrived.fire()
    if wait > 0 {
      try? await clock.sleep(until: dueAt)
      state.withLock { $0.answerDueAt = nil }
    }
    return result
  }

  /// Waits until `count` sends have reached the server.
  public func waitForArrivals(_ count: Int) async {
    while !Task.isCancelled {
      let generation = arrived.generation
      if arrivals >= count { return }
      await arrived.wait(after: generation)
    }
  }
}
