import EngagementServer
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

  public init(t: Instant, body: Body) {
    self.t = t
    self.body = body
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
