import RegistrationCore

/// The read-back's next step, decided purely from the queue, the clock and each device's
/// registrations (`ReadBackQueue.plan`); the server only carries it out (`nextReadBack`).
public struct ReadBackPlan: Sendable {
  public enum Step: Sendable, Equatable {
    /// Ask the tenant about `registrationID` under `contactKey`, now.
    case ask(deviceID: String, contactKey: String, registrationID: Int)
    /// Nothing to ask before this.
    case sleep(until: Instant)
  }

  /// What the server shows or says on the way, in order.
  public enum Effect: Sendable, Equatable {
    /// The device's next lookup is due then (nil: none).
    case due(deviceID: String, at: Instant?)
    /// The device's registrations left the server's window: it is not asked.
    case leftWindow(deviceID: String)
    /// The compared registration carried no contact key, nor did any before it (S3).
    case noContactKey(deviceID: String, registrationID: Int)
  }

  public var step: Step
  public var effects: [Effect]
}

extension ReadBackQueue {
  /// The next lookup to make, or how long to wait for one, with what to show on the way. A
  /// device whose newest registration is not yet a window old waits for it (up to
  /// `longestWait` windows): the tenant is asked about what the app sent last, not about a
  /// value it has since replaced. A registration without a contact key is answered without
  /// the tenant, and never waits behind the minute's lookups.
  public mutating func plan(
    now: Instant, registrations: (String) -> [ServerRegistration]
  ) -> ReadBackPlan {
    var effects: [ReadBackPlan.Effect] = []
    while let waiting = take(now: now) {
      let deviceID = waiting.deviceID
      let mine = registrations(deviceID)
      guard let newest = mine.last else {
        effects += [.due(deviceID: deviceID, at: nil), .leftWindow(deviceID: deviceID)]
        continue
      }
      let ripe = newest.receivedAt + window
      if ripe > now, ripe - waiting.since <= window * Self.longestWait {
        wait(waiting, until: ripe)
        effects.append(.due(deviceID: deviceID, at: ripe))
        continue
      }
      guard let compared = mine.last(where: { $0.receivedAt + window <= now }) else {
        wait(waiting, until: ripe)
        continue
      }
      guard let key = Self.contactKey(of: compared, among: mine) else {
        if compared.id != newest.id { answered(deviceID, at: newest.receivedAt) }
        effects.append(.noContactKey(deviceID: deviceID, registrationID: compared.id))
        continue
      }
      guard mayAsk(now: now) else {
        // The minute's lookups are spent: back in its place, asked when the rate allows.
        wait(waiting, until: waiting.at)
        break
      }
      // Waited as long as it may: the newest old enough is asked about, the newer after.
      if compared.id != newest.id { answered(deviceID, at: newest.receivedAt) }
      asked(now: now)
      return ReadBackPlan(
        step: .ask(deviceID: deviceID, contactKey: key, registrationID: compared.id),
        effects: effects)
    }
    // A registration coming in now falls due a window from now: never later than this wake.
    let wake = nextWake(now: now) ?? now + window
    return ReadBackPlan(step: .sleep(until: min(wake, now + window)), effects: effects)
  }

  /// The contact key to search by: the registration's own, else the newest an earlier
  /// registration of the device carried (a registration without a key leaves the device in
  /// the contact it has, S3); nil when none ever did (the tenant made a key up).
  public static func contactKey(of compared: ServerRegistration, among mine: [ServerRegistration])
    -> String?
  {
    mine.filter { $0.id <= compared.id }.reversed().lazy
      .compactMap { $0.payload.subscriberKey.map(InputRules.trimmed) }
      .first { !$0.isEmpty }
  }
}
