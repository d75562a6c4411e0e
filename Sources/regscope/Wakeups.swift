import Foundation
import InspectorUI
import Session
import SessionValues
import Synchronization
import SystemCalls

/// What other threads tell the UI thread. It sleeps otherwise: no ticker.
enum Wake: Sendable {
  /// For `update`: a snapshot or events the session pushed, the outcome of work the UI
  /// handed it, a notice, a demo's or a QA run's progress, a computed fleet.
  case message(InspectorMessage)
  /// The terminal changed size: the UI reads the new size, then updates with it.
  case resize
  case terminate
}

/// What other threads tell the UI thread, and the pipe that wakes its poll(): a post writes
/// one byte only when the queue was empty, so the pipe never fills.
final class WakeQueue: Sendable {
  private let pipe: (read: Int32, write: Int32)
  private let waiting = Mutex<[Wake]>([])

  struct PipeError: Error, CustomStringConvertible {
    var description: String
  }

  init() throws {
    do {
      pipe = try SystemCalls.makeWakePipe()
    } catch {
      throw PipeError(description: "cannot make the UI's wake pipe: \(error)")
    }
  }

  /// For poll(): readable when something was posted.
  var descriptor: Int32 { pipe.read }

  /// Posts `wake`. Only the newest snapshot matters (an older one waiting is dropped), and
  /// events posted one after another wait as one batch.
  func post(_ wake: Wake) {
    let first = waiting.withLock { waiting in
      if case .message(.snapshot) = wake,
        let older = waiting.lastIndex(where: {
          if case .message(.snapshot) = $0 { true } else { false }
        })
      {
        waiting.remove(at: older)
      }
      if case .message(.events(let more)) = wake, case .message(.events(var batch))? = waiting.last
      {
        // Taken out first, so the batch is appended to in place, not copied a post.
        waiting.removeLast()
        batch.append(contentsOf: more)
        // The screen keeps the newest maxEvents: a stalled UI holds no more than twice that.
        if batch.count > 2 * InspectorModel.maxEvents {
          batch.removeFirst(batch.count - InspectorModel.maxEvents)
        }
        waiting.append(.message(.events(batch)))
        return false
      }
      waiting.append(wake)
      return waiting.count == 1
    }
    if first { SystemCalls.writeByte(to: pipe.write) }
  }

  /// Everything posted since the last call, oldest first.
  func take() -> [Wake] {
    SystemCalls.drain(pipe.read)
    return waiting.withLock { waiting in
      defer { waiting = [] }
      return waiting
    }
  }

  deinit {
    SystemCalls.close(pipe.read)
    SystemCalls.close(pipe.write)
  }
}

/// Signals the UI handles itself: resize, and a polite request to stop. Started once the
/// terminal is, it reads the size once at once.
enum SignalWatch {
  static func start(_ wake: @escaping @Sendable (Wake) -> Void) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    for (signal, message) in [
      (SystemCalls.Signal.windowChanged, Wake.resize), (.terminate, .terminate),
      (.hangUp, .terminate), (.interrupt, .terminate),
    ] {
      let number = SystemCalls.takeOver(signal)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { wake(message) }
      source.resume()
      sources.append(source)
    }
    // A window resized while the terminal started (before SIGWINCH was ours) sent a signal
    // nobody took: the size is read again once, as after a SIGWINCH (found by a test that
    // resizes at once, on a busy machine: regscope kept drawing for the old width).
    wake(.resize)
    return sources
  }
}

/// The UI's own thread: it owns the terminal and the model, and blocks in poll() between
/// wakes, so an idle tick is one thread waking, not a timer thread, a queue and a task.
enum UIThread {
  static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.name = "regscope-ui"
      thread.start()
    }
  }
}
