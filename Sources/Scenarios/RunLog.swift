import Synchronization

/// Thread-safe, ordered record of everything a run did.
public final class RunLog: Sendable {
  private let events = Mutex<[RunEvent]>([])
  private let listener: (@Sendable (RunEvent) -> Void)?

  public init(listener: (@Sendable (RunEvent) -> Void)? = nil) { self.listener = listener }

  public var all: [RunEvent] { events.withLock { $0 } }

  public func append(_ event: RunEvent) {
    events.withLock { $0.append(event) }
    listener?(event)
  }

  public func count(_ type: String) -> Int {
    events.withLock { $0.filter { $0.type == type }.count }
  }

  public func last(_ type: String) -> RunEvent? {
    events.withLock { $0.last { $0.type == type } }
  }
}
