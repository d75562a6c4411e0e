import Foundation

/// How long a test waits for something that should come at once before it calls it a hang:
/// a guard, never an assertion. Generous, because on two cores with every test running at
/// once (and a second whole run beside it) a test can wait minutes for a thread of the pool;
/// a wait that succeeds returns the moment it can, so only a real hang pays it.
public enum HangGuard {
  public static let seconds = 300
}

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
