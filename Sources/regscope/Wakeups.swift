import Foundation
import InspectorUI
import Session
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Why the UI woke up. It sleeps otherwise: no ticker.
enum Wake: Sendable {
  case input
  /// The session pushed events or a snapshot.
  case state
  case resize
  case tick
  case message(String, isError: Bool)
  /// The Fleet view's fleet has been computed.
  case fleet(FleetShow)
  case terminate
}

/// Watches standard input with poll() on a thread of its own, so no task blocks on it. After
/// each "input ready" it waits until the UI has read the keys, then watches again.
final class InputWatcher: Sendable {
  private let wake: @Sendable (Wake) -> Void
  private let drainedSignal = DispatchSemaphore(value: 0)
  private let stopPipe: (read: Int32, write: Int32)
  private let stopped = Mutex(false)

  init(wake: @escaping @Sendable (Wake) -> Void) {
    self.wake = wake
    var fds: [Int32] = [0, 0]
    _ = pipe(&fds)
    stopPipe = (fds[0], fds[1])
  }

  func start() {
    let thread = Thread { [self] in watch() }
    thread.name = "regscope-input"
    thread.start()
  }

  private func watch() {
    while !stopped.withLock({ $0 }) {
      var fds = [
        pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        wake(.terminate)
        return
      }
      if fds[1].revents != 0 { return }
      if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
        wake(.terminate)
        return
      }
      if fds[0].revents & Int16(POLLIN) != 0 {
        wake(.input)
        drainedSignal.wait()
      }
    }
  }

  /// The UI read what was waiting.
  func drained() { drainedSignal.signal() }

  func stop() {
    stopped.withLock { $0 = true }
    var byte: UInt8 = 1
    _ = write(stopPipe.write, &byte, 1)
    drainedSignal.signal()
  }
}

/// Signals the UI handles itself: resize, and a polite request to stop.
enum SignalWatch {
  static func start(_ wake: @escaping @Sendable (Wake) -> Void) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    for (number, message) in [
      (SIGWINCH, Wake.resize), (SIGTERM, .terminate), (SIGHUP, .terminate), (SIGINT, .terminate),
    ] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { wake(message) }
      source.resume()
      sources.append(source)
    }
    return sources
  }
}
