import EngagementCore
import Foundation
import RegistrationCore
import Synchronization
import SystemCalls

/// `--har FILE`: every device request and its answer, kept as a HAR 1.2 file that is valid
/// JSON at every moment. The file is rewritten whole (a private file renamed over it, so a
/// reader or a `kill -9` sees the last version, never half of one) a second after a change,
/// and once more when the process stops. At most `entryLimit` exchanges are kept; later ones
/// are counted, and the count is said at the end.
public final class HARFile: Sendable {
  public static let entryLimit = 100_000
  /// How long after a change the file is rewritten.
  public static let flushDelay: Duration = .seconds(1)

  public let path: String
  /// Told the number of exchanges each time the file has been written.
  private let written: (@Sendable (Int) -> Void)?
  /// Told at once when a write fails (and again only after one succeeded).
  private let failed: (@Sendable (String) -> Void)?
  /// The advisory lock that keeps a second writer off this path.
  private let lock: Int32
  private struct State {
    var exchanges: [CapturedExchange] = []
    var beyondLimit = 0
    var flush: Task<Void, Never>?
    var lastProblem: String?
    var closed = false
  }
  private let state = Mutex(State())

  /// Writes an empty capture at once, so a path that cannot be written is an error at start.
  public init(
    path: String, written: (@Sendable (Int) -> Void)? = nil,
    failed: (@Sendable (String) -> Void)? = nil
  ) throws(HARError) {
    self.path = path
    self.written = written
    self.failed = failed
    switch SystemCalls.lockForWriting(path) {
    case .failure(let failure):
      throw HARError(
        .unreadable, "--har \(TerminalText.escaped(path)): cannot be written (\(failure))")
    case .success(let descriptor): lock = descriptor
    }
    if let problem = SystemCalls.replaceFile(path, with: Array(HARDocument.encode([]))) {
      SystemCalls.unlock(lock, path: path)
      throw HARError(
        .unreadable, "--har \(TerminalText.escaped(path)): cannot be written (\(problem))")
    }
  }

  public func record(_ exchange: CapturedExchange) {
    state.withLock { state in
      guard state.exchanges.count < Self.entryLimit else {
        state.beyondLimit += 1
        return
      }
      state.exchanges.append(exchange)
      guard state.flush == nil else { return }
      state.flush = Task { [weak self] in
        try? await Task.sleep(for: Self.flushDelay)
        guard !Task.isCancelled else { return }
        self?.write()
      }
    }
  }

  /// How many exchanges the file holds, and how many came past the limit.
  public var counts: (kept: Int, beyondLimit: Int) {
    state.withLock { ($0.exchanges.count, $0.beyondLimit) }
  }

  /// The last write's failure, if the last write failed.
  public var problem: String? { state.withLock { $0.lastProblem } }

  /// Writes what is held now (the process is stopping).
  public func close() {
    let (pending, alreadyClosed) = state.withLock { state in
      defer { (state.flush, state.closed) = (nil, true) }
      return (state.flush, state.closed)
    }
    guard !alreadyClosed else { return }
    pending?.cancel()
    write()
    SystemCalls.unlock(lock, path: path)
  }

  private func write() {
    let exchanges = state.withLock { state in
      state.flush = nil
      return state.exchanges
    }
    // In the order the requests started, whatever order their answers ended in.
    let ordered = exchanges.enumerated().sorted {
      ($0.element.startedAt, $0.offset) < ($1.element.startedAt, $1.offset)
    }.map(\.element)
    let problem = SystemCalls.replaceFile(path, with: Array(HARDocument.encode(ordered)))
    let firstFailure = state.withLock { state in
      defer { state.lastProblem = problem }
      return problem != nil && state.lastProblem == nil
    }
    if let problem, firstFailure {
      failed?("--har \(TerminalText.escaped(path)): cannot be written (\(problem))")
    }
    if problem == nil { written?(ordered.count) }
  }
}
