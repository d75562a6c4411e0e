import EngagementCore
import RegistrationCore
import Synchronization

/// Registrations a front took, waiting for the server's actor: one task takes every one that
/// waits in a single hop onto the actor. A task each (made, switched to the actor and back,
/// freed) cost a twentieth of a fleet registration; under load a hop now carries all that the
/// connections read while the actor was busy. Each is still received on its own and in the
/// order it came (`LocalEngagementServer.receive(_:facts:)`), and a connection has at most
/// one waiting, so its answers keep its requests' order.
public final class RegistrationInbox: Sendable {
  public struct Waiting: Sendable {
    let validation: EngagementServerCore.Validation
    let facts: RequestFacts
    /// Called with the answer once the actor is left, on the task that took the batch: the
    /// front moves it to the connection's own thread if that is another.
    let reply: @Sendable (ServerAnswer, String?) -> Void

    public init(
      _ validation: EngagementServerCore.Validation, facts: RequestFacts,
      reply: @escaping @Sendable (ServerAnswer, String?) -> Void
    ) {
      self.validation = validation
      self.facts = facts
      self.reply = reply
    }
  }

  private let server: LocalEngagementServer
  private let waiting = Mutex<[Waiting]>([])

  public init(_ server: LocalEngagementServer) { self.server = server }

  /// Adds a registration. True when the inbox was empty: the caller then starts a task that
  /// calls `deliver()` (on the executor it prefers); otherwise one already started takes it.
  public func submit(_ registration: Waiting) -> Bool {
    waiting.withLock { waiting in
      waiting.append(registration)
      return waiting.count == 1
    }
  }

  /// Receives every waiting registration in one turn of the actor, then replies to each
  /// and lets go of the devices the watch dropped meanwhile, off the actor.
  public func deliver() async {
    let (taken, answers, evicted) = await server.receiveAll(taking: takeAll)
    // By index: a registration copied out of the array was a retain of each of its parts.
    for index in taken.indices {
      taken[index].reply(answers[index].answer, answers[index].subscriberToken)
    }
    _ = consume evicted
  }

  /// Everything waiting, in the order it came; the inbox empty again.
  @Sendable private func takeAll() -> [Waiting] {
    waiting.withLock { waiting in
      var taken: [Waiting] = []
      swap(&taken, &waiting)
      return taken
    }
  }
}

extension LocalEngagementServer {
  /// The registrations `take` hands over, taken here on the actor (so that those read while
  /// it was busy join), each received as `receive(_:facts:)` would, in order.
  func receiveAll(taking take: @Sendable () -> [RegistrationInbox.Waiting]) -> (
    taken: [RegistrationInbox.Waiting],
    answers: [(answer: ServerAnswer, subscriberToken: String?)],
    evicted: DeviceWatch.Evicted
  ) {
    let taken = take()
    var answers: [(answer: ServerAnswer, subscriberToken: String?)] = []
    answers.reserveCapacity(taken.count)
    for index in taken.indices {
      answers.append(receive(taken[index].validation, facts: taken[index].facts))
    }
    return (taken, answers, watch.takeEvicted())
  }
}
