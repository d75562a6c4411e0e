import Foundation

/// Runs blocking work (a child process, a socket, a poll) on a thread of its own.
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core. A test that
/// blocks one of them in `waitpid` or `recv` while another waits for an in-process server (whose
/// handlers need the same pool) can stall the whole run on a two-core machine: CI once timed out
/// that way. Blocking calls in tests go through here instead.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.start()
  }
}
