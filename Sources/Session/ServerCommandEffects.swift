import Clocks
import EngagementCore
import EngagementServer
import RegistrationCore
import SessionValues

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

extension ServerCommand {
  /// Carries the command out and words the server's state after it. Over HTTP, down and up
  /// stop and start a real listener: the answer waits until the front has followed.
  func run(on server: LocalEngagementServer, front: (any ServerFront)?) async throws
    -> CommandOutcome
  {
    try await apply(to: server)
    if let front { await front.waitUntil(listening: !(await server.isDown())) }
    let fault = await server.fault
    return .done(fault.map { "server: \($0.summary)" } ?? "server: \(doneText)")
  }

  var doneText: String {
    switch self {
    case .up: "up, no fault"
    case .defineAttribute(let name): "attribute \(name) defined"
    default: "done"
    }
  }
}
