import RegistrationCore

/// What the judge remembers of one device between its registrations: what the server saw of
/// its sends (for the core's `earliestNext`), the bodies to compare with, and the contact the
/// server accepted for it.
public struct JudgeMemory: Sendable {
  /// The contact the server holds for a device from the registrations it accepted (S3).
  public enum Contact: Hashable, Sendable {
    /// Accepted without a contact key: the server made one up.
    case madeUp
    case key(String)
  }

  public internal(set) var observed = ObservedSends()
  public internal(set) var lastSent: RegistrationPayload? {
    get { sent?.payload }
    set { sent = newValue.map(RememberedPayload.init) }
  }
  public internal(set) var lastAcknowledged: RegistrationPayload? {
    get { acknowledged?.payload }
    set { acknowledged = newValue.map(RememberedPayload.init) }
  }
  /// The two bodies by reference: inline they made a watched device 1,272 bytes, moved whole
  /// each time the watch's table of 5,000 devices shifts (twice a fleet registration).
  private var sent: RememberedPayload?
  private var acknowledged: RememberedPayload?
  /// Nil until the server accepted a registration from the device (2xx, and processing
  /// will not refuse it).
  public internal(set) var acceptedContact: Contact?
  /// The cause that explained the first of the current run of early sends; nil once a send
  /// comes on time. A cause that cannot repeat explains only the first send of a run.
  var runCause: Finding.Cause?
  /// Whether the registration before repeated a record the server had acknowledged.
  var previousRepeated = false
  var previousStatus: Int?

  public init() {}

  /// `payload` as the body last sent, and as the one acknowledged when it was: one box for
  /// both.
  mutating func remember(sent payload: RegistrationPayload, acknowledged: Bool) {
    let remembered = RememberedPayload(payload)
    sent = remembered
    if acknowledged { self.acknowledged = remembered }
  }
}

/// A body the judge remembers, never changed once made: copies of a memory share it.
final class RememberedPayload: Sendable {
  let payload: RegistrationPayload

  init(_ payload: RegistrationPayload) { self.payload = payload }
}
