import Clocks
import EngagementCore
import RegistrationCore
import Synchronization

/// One change in the server, as its one stream (`ServerChanges`) carries it.
public enum ServerChange: Sendable, Equatable {
  /// Something the server says (a registration received or refused, one processed, a
  /// finding, a fault, an adopted app), at the instant it happened, in the order it happened.
  case event(ServerEvent, at: Instant)
  /// A device real apps use changed in the watch (a request, a refusal, an adopted app).
  case watched
  /// The processing schedule's earliest deadline or the fault changed.
  case schedule
  /// A group commit's transaction ended (the store now holds what it carried).
  case stored

  /// The changes one kind at a time, for a loop that waits on one (`ServerChanges.signal`).
  public enum Kind: Int, CaseIterable, Sendable {
    case event, watched, schedule, stored
  }

  public var kind: Kind {
    switch self {
    case .event: .event
    case .watched: .watched
    case .schedule: .schedule
    case .stored: .stored
    }
  }
}

/// The one way changes leave the server. An observer is called with each change as it
/// happens, on the server's actor (the store's writer for `.stored`), in order: a session's
/// log gets the events in the order the server made them, before the request that made them
/// is answered. A loop on a clock (the processing, the front's down-fault watch, a QA run)
/// sleeps on the signal of the one kind it needs instead, so that, say, the events of every
/// request under a fleet never wake the processing loop.
public final class ServerChanges: Sendable {
  public typealias Observer = @Sendable (ServerChange) -> Void

  private let observers = Mutex<[Observer]>([])
  /// One a kind, by `Kind.rawValue`.
  private let signals = ServerChange.Kind.allCases.map { _ in ChangeSignal() }

  public init() {}

  /// Adds an observer, told every change from now on, for the life of the server.
  public func observe(_ observer: @escaping Observer) {
    observers.withLock { $0.append(observer) }
  }

  /// Moves with every change of `kind`: what `EngineClock.sleep(until:orUntil:movesPast:)`
  /// waits on.
  public func signal(_ kind: ServerChange.Kind) -> ChangeSignal { signals[kind.rawValue] }

  func send(_ change: ServerChange) {
    for observer in observers.withLock({ $0 }) { observer(change) }
    signals[change.kind.rawValue].fire()
  }
}
