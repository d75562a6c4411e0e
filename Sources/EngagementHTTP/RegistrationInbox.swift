import EngagementCore
import EngagementServer
import RegistrationCore
import Synchronization

/// Registrations a front took, waiting for the server's actor: one task takes every one that
/// waits in a single hop onto the actor (`LocalEngagementServer.receiveAll(taking:)`, the
/// server's one way in). A task each (made, switched to the actor and back, freed) cost a
/// twentieth of a fleet registration; under load a hop now carries all that the connections
/// read while the actor was busy. Each is still received on its own and in the order it came,
/// and a connection has at most one waiting, so its answers keep its requests' order. The fast
/// path submits from its event loop (`submit`, `deliver`); Hummingbird's route awaits its
/// answer (`receive`).
public final class RegistrationInbox: Sendable {
  /// A registration and where its answer goes (kept by the server's module, whose actor
  /// receives the batch).
  public typealias Waiting = BatchedRegistration

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

  /// One registration's answer and subscriber token, received with whatever else waits.
  public func receive(_ validation: EngagementServerCore.Validation, facts: RequestFacts) async
    -> (answer: ServerAnswer, subscriberToken: String?)
  {
    await withCheckedContinuation { answered in
      let first = submit(Waiting(validation, facts: facts) { answered.resume(returning: ($0, $1)) })
      if first { Task { await self.deliver() } }
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
