import EngagementCore
import RegistrationCore

/// One thing that happened in a run: a decision of the engine, or something the server did.
public struct RunEvent: Hashable, Sendable {
  public enum Body: Hashable, Sendable {
    case engine(RegistrationEvent)
    case server(ServerEvent)
  }

  /// Seconds since the start of the run (virtual time in scenarios).
  public var t: Instant
  public var body: Body
  /// For `sending` and `sent`: the bytes that went on the wire, as the engine sent them.
  public var wireBody: [UInt8]?

  public init(t: Instant, body: Body, wireBody: [UInt8]? = nil) {
    self.t = t
    self.body = body
    self.wireBody = wireBody
  }

  /// The body that was sent, exactly: the wire bytes when the engine kept them.
  public var sentBytes: [UInt8]? {
    switch body {
    case .engine(.sending(_, _, _, let payload)), .engine(.sent(_, _, _, let payload)):
      wireBody ?? payload.encodedBytes()
    default: nil
    }
  }

  public var kind: EventKind {
    switch body {
    case .engine(let event): event.kind
    case .server(let event): event.kind
    }
  }

  /// The event-stream type name.
  public var type: String { kind.rawValue }
}
