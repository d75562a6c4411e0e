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

/// The one way a registration comes into the server (S1, S7): `receiveAll(taking:)`. The HTTP
/// front's paths reach it through their inboxes, a batch a hop; an in-process caller through
/// `receive(_:facts:)`, a batch of one.
extension LocalEngagementServer {
  /// The registrations `take` hands over, taken here on the actor (so that those read while
  /// it was busy join), each received on its own, in order; the devices the watch dropped
  /// meanwhile are handed back to be let go of outside the actor.
  public func receiveAll(taking take: @Sendable () -> [BatchedRegistration]) -> (
    taken: [BatchedRegistration],
    answers: [(answer: ServerAnswer, subscriberToken: String?)],
    evicted: DeviceWatch.Evicted
  ) {
    let taken = take()
    entered.add(taken.count, ordering: .relaxed)
    var answers: [(answer: ServerAnswer, subscriberToken: String?)] = []
    answers.reserveCapacity(taken.count)
    for index in taken.indices {
      answers.append(receiveOne(taken[index].validation, facts: taken[index].facts))
    }
    return (taken, answers, watch.takeEvicted())
  }

  /// One registration validated outside the actor (`validationSettings`), through
  /// `receiveAll(taking:)` as a batch of one: the simulated network's way in, and a test's.
  public nonisolated func receive(
    _ validation: EngagementServerCore.Validation, facts: RequestFacts = RequestFacts()
  ) async -> (answer: ServerAnswer, subscriberToken: String?) {
    let one = BatchedRegistration(validation, facts: facts) { _, _ in }
    let (_, answers, evicted) = await receiveAll { [one] }
    _ = consume evicted  // let go here, not on the actor
    return answers[0]
  }

  /// One `POST /device/v1/registration` as its header and body came, checked here and
  /// received as `receive(_:facts:)` does.
  public nonisolated func receive(authorization: String?, body: [UInt8]) async -> ServerAnswer {
    await receive(
      EngagementServerCore.validate(
        authorization: authorization, body: body, settings: validationSettings)
    ).answer
  }

  /// One registration: for a real app's, it joins its device's timeline and is judged
  /// (`watch`); the answer carries the device's `X-Subscriber-Token`.
  private func receiveOne(_ validation: EngagementServerCore.Validation, facts: RequestFacts)
    -> (answer: ServerAnswer, subscriberToken: String?)
  {
    let now = clock.now()
    var validation = validation
    if adoptsFirstApp, case .invalid(let answer, var refusal) = validation {
      refusal.setting = .anyApp
      validation = .invalid(answer, refusal: refusal)
    }
    // Straight into the changes the store has yet to get; this request's events are said,
    // then dropped from them (the store keeps none).
    let mark = unwrittenMark
    let receipt = core.receiveNoting(validation, now: now, into: &unwritten)
    let answer = receipt.answer
    // A fault that ran out (its count, its time) gives the fast path back.
    if !receipt.faultSet { faultSet.store(false, ordering: .relaxed) }
    if case .invalid(let refused, let refusal) = validation {
      // Shown against its device (or its client) at once; said, naming it, at most once a
      // minute each.
      let announced =
        answer == refused ? watch.recordRefusal(refusal, facts: facts, at: now) : nil
      let events = unwritten.events[mark.events...].compactMap { event -> ServerEvent? in
        guard case .refused(let status, let reason, _) = event else { return event }
        return announced.map { .refused(status: status, reason: reason, deviceID: $0) }
      }
      unwritten.events.replaceSubrange(mark.events..., with: events)
      committed(since: mark, at: now)
      watched()
      return (answer, nil)
    }
    committed(since: mark, at: now)
    // Wake the processing loop only when the earliest deadline moved, not on every request.
    if receipt.deadlineMoved { changes.send(.schedule) }
    guard case .valid(let payload, let body) = validation, let deviceID = payload.deviceID,
      !deviceID.isEmpty
    else { return (answer, nil) }
    var status: Int?
    var retryAfter: RetryAfter.Value?
    if case .respond(let code, _, let after) = answer {
      // Sent as whole seconds (`EngagementRoutes.json`).
      (status, retryAfter) = (code, after.map { .delaySeconds($0.rounded(.up)) })
    }
    let token = watch.record(
      ReceivedRegistration(
        deviceID: deviceID, payload: payload, body: body, facts: facts, at: now, status: status,
        retryAfter: retryAfter, server: core.judgeFacts(excluding: deviceID)))
    announceFindings(of: deviceID, at: now)
    watched()
    // The token goes out with an answer the app takes, as the tenant's does: a 2xx.
    return (answer, status.map(RetryPolicy.isSuccess) == true ? token : nil)
  }
}
