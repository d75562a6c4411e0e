/// "A change now waits N s": answered by the very decisions that will schedule the send, run
/// on a copy of the machine, so the hint and the schedule can never disagree.
extension RegistrationMachine {
  /// When a change made at `now` would leave the device: a copy takes a stand-in edit and is
  /// ticked through its deadlines (an Android send inside its throttle is answered on the
  /// device and retried, as for real) until it starts a send. Nil when nothing would be sent
  /// (delayed for a contact key, a required field missing) or a send is on the wire.
  public func changeWouldLeave(madeAt now: Instant) -> Instant? {
    guard inFlight == nil else { return nil }
    var copy = self
    let applied = Self.forecastTags.contains { tag in
      if case .applied = copy.apply(.addTag(tag), now: now).0 { return true }
      return false
    }
    guard applied else { return nil }
    return copy.pendingWouldLeave(now: now)
  }

  /// When what is pending now leaves the device, through the attempts the device answers
  /// itself on the way (Android's 429 inside its throttle); nil when nothing would leave.
  public func pendingWouldLeave(now: Instant) -> Instant? {
    guard inFlight == nil else { return nil }
    var copy = self
    var at = now
    // A handful of rounds covers every profile: one local refusal, then the send.
    for _ in 0..<8 {
      guard case .due(let due, _, _) = copy.plan else { return nil }
      at = max(at, due)
      _ = copy.tick(now: at)
      if copy.inFlight != nil { return at }
    }
    return nil
  }

  /// Stand-in tags for the forecast's edit: the first the record lacks is used.
  static let forecastTags = ["regscope-forecast", "regscope-forecast-2"]
}
