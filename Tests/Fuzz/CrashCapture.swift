import Foundation
import Session
import SessionValues

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the input being run where a signal handler can write it out: if a target traps,
/// the input is saved to `fuzz-crash-TARGET.bin` before the process dies, for replay with
/// `regscope-fuzz TARGET --replay FILE`.
enum CrashCapture {
  // Written only by the runner's single thread between runs and read only by the signal
  // handler of that same thread while a run traps: never two accesses at once.
  nonisolated(unsafe) static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 1024)
  nonisolated(unsafe) static var count = 0
  nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar> = strdup("fuzz-crash.bin")!

  static func keep(_ input: [UInt8]) {
    count = min(input.count, 64 * 1024)
    input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
  }

  /// Async-signal-safe: open, write, close.
  static func save() {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, buffer, count)
    close(descriptor)
  }

  static func install(target: String) {
    path = strdup("fuzz-crash-\(target).bin") ?? path
    for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
      signal(signalNumber) { number in
        CrashCapture.save()
        let message = "crashed; the input is in the fuzz-crash file\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }
}
