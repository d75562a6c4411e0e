import RegistrationCore

extension EngagementServerCore {
  /// What the server's actor asks of the core after a request.
  public struct Receipt: Sendable {
    public var answer: ServerAnswer
    /// Whether the earliest processing deadline moved (the processing loop is woken then).
    public var deadlineMoved: Bool
    /// Whether a fault is still set after this request.
    public var faultSet: Bool
  }

  /// `receive(_:now:into:)`, and what the actor asks after it, read here, in place: read from
  /// the actor through the core's computed properties, each read copied the whole core (a
  /// retain and a release of each of its tables) on every request.
  public mutating func receiveNoting(
    _ validation: Validation, now: Instant, into changes: inout Changes
  ) -> Receipt {
    let deadline = nextDeadline
    let answer = receive(validation, now: now, into: &changes)
    return Receipt(answer: answer, deadlineMoved: nextDeadline != deadline, faultSet: fault != nil)
  }

  /// What the judge asks of the server about `deviceID`'s registration, made in place (as
  /// `receiveNoting`). Only the contacts' devices are captured: a copy of the whole core
  /// held a retain of every table it holds.
  public mutating func judgeFacts(excluding deviceID: String) -> ServerFacts {
    let contactDevices = contactDevices
    return ServerFacts(
      definedAttributes: settings.definedAttributes, demographicsSet: settings.demographicsSet,
      contactStillHasOtherDevices: { key in
        contactDevices[key]?.contains { $0 != deviceID } ?? false
      })
  }
}
