import EngagementCore
import RegistrationCore

/// A registration a front validated outside the actor, waiting to be received in a batch
/// (`LocalEngagementServer.receiveAll(taking:)`), with where its answer goes.
public struct BatchedRegistration: Sendable {
  public let validation: EngagementServerCore.Validation
  public let facts: RequestFacts
  /// Called with the answer once the actor is left, on the task that took the batch: the
  /// front moves it to the connection's own thread if that is another.
  public let reply: @Sendable (ServerAnswer, String?) -> Void

  public init(
    _ validation: EngagementServerCore.Validation, facts: RequestFacts,
    reply: @escaping @Sendable (ServerAnswer, String?) -> Void
  ) {
    self.validation = validation
    self.facts = facts
    self.reply = reply
  }
}

extension LocalEngagementServer {
  /// The registrations `take` hands over, taken here on the actor (so that those read while
  /// it was busy join), each received as `receive(_:facts:)` would, in order; the devices the
  /// watch dropped meanwhile are handed back to be let go of outside the actor.
  public func receiveAll(taking take: @Sendable () -> [BatchedRegistration]) -> (
    taken: [BatchedRegistration],
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
