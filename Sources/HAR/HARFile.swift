import EngagementCore
import Foundation
import RegistrationCore
import Synchronization
import SystemCalls

/// `--har FILE`: every device request and its answer, kept as a HAR 1.2 file that is valid
/// JSON at every moment. The file is made whole at start (by the one writer,
/// `SystemCalls.replaceFile`); after that each exchange is appended, written over the
/// document's tail with the tail after it, in one write a second after a change, sooner once
/// `eagerBytes` wait (and at stop). So a write costs what the new exchanges cost, however long
/// the session, and nothing is held in memory but the last second's, at most `eagerBytes`
/// (while writes fail, at most `heldBytes`, kept for the next write). Past `byteBudget` bytes
/// on disk, exchanges are counted, not kept, and the count is said at the end.
public final class HARFile: Sendable {
  /// The most a capture file may grow to: 512 MiB.
  public static let byteBudget = 512 << 20
  /// How long after a change the new exchanges are written.
  public static let flushDelay: Duration = .seconds(1)
  /// Waiting entries written at once, not a second later: under a fleet a second's entries
  /// were tens of megabytes, held, copied whole into one write and gone from the caches.
  public static let eagerBytes = 256 << 10

  public let path: String
  /// Told the number of exchanges each time the file has been written.
  private let written: (@Sendable (Int) -> Void)?
  /// Told at once when a write fails (and again only after one succeeded).
  private let failed: (@Sendable (String) -> Void)?
  /// The advisory lock that keeps a second writer off this path.
  private let lock: Int32
  /// The bytes the file may grow to (`byteBudget`, less in tests).
  private let budget: Int
  /// `flushDelay` and `eagerBytes`, other in tests.
  private let delay: Duration
  private let eagerLimit: Int
  /// The most a failed write's entries may hold in memory for the next (`heldBytes`).
  private let heldLimit: Int
  /// A write that failed (a full disk, the file gone) keeps its entries for the next one, up
  /// to this many bytes waiting in all; past it they are counted as lost, and said at the end.
  public static let heldBytes = 4 << 20
  private struct State {
    /// Entries encoded but not yet written (the last second's), each after its ",\n", in one
    /// buffer: kept as an array each, every entry was freed by the writer's thread, which
    /// took the lock of the memory of the event loop that made it (entries are larger than
    /// what a thread keeps to reuse), and held that loop up. Copied in here, an entry is let
    /// go where it was made.
    var pending: [UInt8] = []
    /// The buffer of the last write, emptied, its room kept: the next `pending`.
    var spare: [UInt8] = []
    var pendingCount = 0
    var pendingBytes = 0
    var kept = 0
    var bytesOnDisk = 0
    var beyondBudget = 0
    var flush: Task<Void, Never>?
    /// A writer started because `eagerBytes` were waiting is at work: one at a time.
    var eager = false
    /// Entries being written (taken from `pending`, not yet on disk).
    var writingCount = 0
    var writingBytes = 0
    var lastProblem: String?
    /// Exchanges a failed write could not keep for the next (`heldBytes`), or that no write
    /// could take before the capture closed.
    var lost = 0
    var closed = false
  }
  private let state = Mutex(State())
  /// Buffers an entry is encoded in, kept to be used again (`CompactJSON.init(reusing:)`):
  /// a few, one for each thread encoding at once, each at most `encodingRoom`.
  private let encoding = Mutex<[[UInt8]]>([])
  private static let encodingRoom = 64 << 10
  /// Held while entries are written: two writes (the second's and the one at stop) never
  /// append at the same offset.
  private let writing = Mutex(())

  /// Writes an empty capture at once, so a path that cannot be written is an error at start.
  public init(
    path: String, written: (@Sendable (Int) -> Void)? = nil,
    failed: (@Sendable (String) -> Void)? = nil, budget: Int = HARFile.byteBudget,
    flushDelay: Duration = HARFile.flushDelay, eagerBytes: Int = HARFile.eagerBytes,
    heldBytes: Int = HARFile.heldBytes
  ) throws(HARError) {
    delay = flushDelay
    eagerLimit = eagerBytes
    heldLimit = heldBytes
    self.budget = budget
    self.path = path
    self.written = written
    self.failed = failed
    switch SystemCalls.lockForWriting(path) {
    case .failure(let failure):
      throw HARError(
        .unreadable, "--har \(TerminalText.escaped(path)): cannot be written (\(failure))")
    case .success(let descriptor): lock = descriptor
    }
    let empty = HARDocument.head + HARDocument.tail
    if let problem = SystemCalls.replaceFile(path, with: Array(empty)) {
      SystemCalls.unlock(lock, path: path)
      throw HARError(
        .unreadable, "--har \(TerminalText.escaped(path)): cannot be written (\(problem))")
    }
    state.withLock { $0.bytesOnDisk = empty.count }
  }

  public func record(_ exchange: CapturedExchange) {
    let entry = HARDocument.entryBytes(
      exchange, reusing: encoding.withLock { $0.popLast() } ?? [])
    defer {
      if entry.capacity <= Self.encodingRoom {
        encoding.withLock { if $0.count < 4 { $0.append(entry) } }
      }
    }
    state.withLock { state in
      guard !state.closed,
        state.bytesOnDisk + state.writingBytes + state.pendingBytes + entry.count + 2 <= budget
      else {
        state.beyondBudget += 1
        return
      }
      // While writes fail nothing is written early: what waits is held to `heldLimit`.
      if state.lastProblem != nil, state.pendingBytes + entry.count + 2 > heldLimit {
        state.lost += 1
        return
      }
      state.pending.append(UInt8(ascii: ","))
      state.pending.append(UInt8(ascii: "\n"))
      state.pending += entry
      state.pendingCount += 1
      state.pendingBytes += entry.count + 2
      // Detached: a task made here would inherit the answering connection's event loop as
      // its executor, and the write would hold that loop up.
      // Not while writes fail: each would try the whole of what waits again at once; the
      // timed write tries once a second.
      if state.pendingBytes >= eagerLimit, !state.eager, state.lastProblem == nil {
        state.eager = true
        Task.detached { [weak self] in self?.write(timed: false) }
      }
      scheduleFlush(&state)
    }
  }

  /// A write `flushDelay` from now, unless one is coming.
  private func scheduleFlush(_ state: inout State) {
    guard state.flush == nil, !state.closed else { return }
    state.flush = Task.detached { [weak self] in
      try? await Task.sleep(for: self?.delay ?? .zero)
      guard !Task.isCancelled else { return }
      self?.write(timed: true)
    }
  }

  /// How many exchanges the file holds, and how many came past the budget.
  public var counts: (kept: Int, beyondBudget: Int) {
    state.withLock { ($0.kept + $0.writingCount + $0.pendingCount, $0.beyondBudget) }
  }

  /// The last write's failure, if the last write failed.
  public var problem: String? { state.withLock { $0.lastProblem } }

  /// Exchanges lost to writes that failed (`heldBytes`, and what waited at close).
  public var lost: Int { state.withLock { $0.lost } }

  /// Writes what is waiting (the process is stopping) and lets the path go.
  public func close() {
    let (pending, alreadyClosed) = state.withLock { state in
      defer { (state.flush, state.closed) = (nil, true) }
      return (state.flush, state.closed)
    }
    guard !alreadyClosed else { return }
    pending?.cancel()
    // The last write, and what it could not take counted lost, in one hold of `writing`: a
    // flush or eager write already under way cannot take the entries in between.
    writing.withLock { _ in
      appendPending()
      state.withLock { state in
        state.lost += state.pendingCount
        (state.pending, state.pendingCount, state.pendingBytes) = ([], 0, 0)
      }
    }
    SystemCalls.unlock(lock, path: path)
  }

  /// Appends the waiting entries over the tail, in one write.
  private func write(timed: Bool = true) {
    // Cleared first: what is recorded while this write runs schedules the next one.
    if timed { state.withLock { $0.flush = nil } }
    writing.withLock { _ in
      while true {
        let wrote = appendPending()
        guard !timed else { return }
        // The eager writer goes on while a quarter megabyte waits again, and stands down under
        // the state's lock, so a record after that starts the next: one at a time, however
        // slow the disk (each waiting writer would hold a thread of Swift's small pool).
        let more = state.withLock { state in
          if wrote, state.pendingBytes >= eagerLimit { return true }
          state.eager = false
          return false
        }
        if !more { return }
      }
    }
  }

  /// Writes what waits; false when the write failed (its entries wait again, `heldBytes`).
  @discardableResult
  private func appendPending() -> Bool {
    var bytes: [UInt8] = []
    let (entries, first, offset) = state.withLock { state in
      swap(&bytes, &state.pending)
      swap(&state.pending, &state.spare)
      defer {
        (state.writingCount, state.writingBytes) = (state.pendingCount, state.pendingBytes)
        (state.pendingCount, state.pendingBytes) = (0, 0)
      }
      return (state.pendingCount, state.kept == 0, state.bytesOnDisk - HARDocument.tail.count)
    }
    guard entries > 0 else { return true }
    // The first entry of the file follows the head with no comma.
    if first { bytes.removeFirst() }
    bytes += HARDocument.tail
    let problem = SystemCalls.writeFile(path, bytes: bytes, at: offset)
    if problem != nil {
      // Made as they waited again: no tail, the first with its comma.
      bytes.removeLast(HARDocument.tail.count)
      if first { bytes.insert(UInt8(ascii: ","), at: 0) }
    }
    let (count, firstFailure) = state.withLock { state in
      let firstFailure = problem != nil && state.lastProblem == nil
      state.lastProblem = problem
      (state.writingCount, state.writingBytes) = (0, 0)
      if problem == nil {
        state.kept += entries
        state.bytesOnDisk = offset + bytes.count
      } else if !state.closed, bytes.count + state.pendingBytes <= heldLimit {
        // Before what came meanwhile, so the file keeps the order they came in.
        state.pendingCount += entries
        state.pendingBytes += bytes.count
        bytes += state.pending
        swap(&bytes, &state.pending)
        scheduleFlush(&state)
      } else {
        state.lost += entries
      }
      return (state.kept, firstFailure)
    }
    // Its room kept for the next entries, unless a stop's write made it large.
    if (bytes.capacity - (64 << 10)) / 2 <= eagerLimit {
      bytes.removeAll(keepingCapacity: true)
      state.withLock { state in
        if state.spare.capacity < bytes.capacity { swap(&state.spare, &bytes) }
      }
    }
    if let problem, firstFailure {
      failed?("--har \(TerminalText.escaped(path)): cannot be written (\(problem))")
    }
    if problem == nil { written?(count) }
    return problem == nil
  }
}
