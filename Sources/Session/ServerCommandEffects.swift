import Clocks
import EngagementServer
import RegistrationCore

extension ServerCommand {
  /// The fault this command puts in force (S7), or nil for `server up` and
  /// `define-attribute`, which set none.
  public func fault(now: Instant) -> ServerFault? {
    switch self {
    case .fail(let status, let times, let retryAfter, let duration):
      return ServerFault(
        kind: .status(status, retryAfter: retryAfter), remaining: times,
        until: duration.map { now + $0 })
    case .down: return ServerFault(kind: .down)
    case .hang: return ServerFault(kind: .hang)
    case .drop: return ServerFault(kind: .drop)
    case .up, .defineAttribute: return nil
    }
  }

  /// Carries the command out on the local server.
  public func apply(to server: LocalEngagementServer) async throws {
    switch self {
    case .defineAttribute(let name):
      try await server.defineAttribute(InputRules.trimmed(name))
    case .up:
      await server.setFault(nil)
    case .fail, .down, .hang, .drop:
      await server.setFault(fault(now: server.clock.now()))
    }
  }
}
