import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What a child process printed and how it ended.
public struct ProcessOutput: Sendable {
  public let status: Int32
  public let stdout: String
  public let stderr: String
  /// True when the watchdog had to end it.
  public let timedOut: Bool
}

/// Runs a program to its end, off the cooperative pool, with a watchdog: a child that hangs is
/// terminated after `timeLimit` seconds, so a broken build fails its test instead of stalling CI.
/// Both pipes are drained at once so a chatty child never blocks on a full pipe.
public func runProcess(
  _ executable: URL, _ arguments: [String], input: String? = nil,
  environment: [String: String] = [:], unset: Set<String> = [],
  timeLimit: Double = Double(HangGuard.seconds)
) async throws -> ProcessOutput {
  try await runProcess(
    executable, arguments, bytes: input.map { Data($0.utf8) }, environment: environment,
    unset: unset, timeLimit: timeLimit)
}

/// `runProcess` with input given as bytes, which need not be UTF-8.
public func runProcess(
  _ executable: URL, _ arguments: [String], bytes input: Data?,
  environment: [String: String] = [:], unset: Set<String> = [],
  timeLimit: Double = Double(HangGuard.seconds)
) async throws -> ProcessOutput {
  try await offThePool {
    var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    for key in unset { env.removeValue(forKey: key) }
    let child = try SpawnedChild(executable.path, arguments, environment: env)
    let watchdog = ChildWatchdog(pid: child.pid, seconds: timeLimit)
    let stdoutReader = PipeReader(FileHandle(fileDescriptor: child.stdout, closeOnDealloc: true))
    let stderrReader = PipeReader(FileHandle(fileDescriptor: child.stderr, closeOnDealloc: true))
    let inHandle = FileHandle(fileDescriptor: child.stdin, closeOnDealloc: true)
    if let input { inHandle.write(input) }
    try? inHandle.close()
    let status = child.wait(beforeReaping: watchdog.cancel)
    // Once the child has ended, its output is in the pipes. A grandchild that inherited a
    // pipe could hold it open far longer; what the child wrote is read by then.
    let stdout = stdoutReader.wait(seconds: 30)
    let stderr = stderrReader.wait(seconds: 30)
    return ProcessOutput(
      status: status, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self), timedOut: watchdog.fired)
  }
}

/// A program found on PATH, through /usr/bin/env.
public func runTool(
  _ name: String, _ arguments: [String], input: String? = nil,
  timeLimit: Double = Double(HangGuard.seconds)
) async throws -> ProcessOutput {
  try await runProcess(
    URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, input: input, timeLimit: timeLimit)
}

/// An executable built beside the test bundle (`swift build` puts every product there).
public func builtProduct(_ name: String) throws -> URL {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
  ].map { $0.appendingPathComponent(name) }
  guard
    let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path)])
  }
  return found
}

/// Terminates a process that outlives its time limit.
public final class Watchdog: Sendable {
  private let state = Mutex(false)

  public init(process: Process, seconds: Double) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      if process.isRunning {
        self.state.withLock { $0 = true }
        process.terminate()
      }
    }
  }

  public var fired: Bool { state.withLock { $0 } }
}

/// Reads a pipe on a thread of its own, keeping what has arrived.
public final class PipeReader: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let data = Mutex(Data())

  public init(_ handle: FileHandle) {
    Thread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        self.data.withLock { $0.append(chunk) }
      }
      self.done.signal()
    }.start()
  }

  /// Everything up to the end of the pipe, or what arrived within `seconds` if it stays open.
  public func wait(seconds: Double) -> Data {
    _ = done.wait(timeout: .now() + seconds)
    return data.withLock { $0 }
  }

  /// What has arrived so far, without waiting.
  public var soFar: Data { data.withLock { $0 } }
}

/// Starts `process`, one launch at a time: Foundation's Process.run on Linux is not safe to
/// call from several threads at once (two parallel tests crashed in its memcpy under load).
public func launch(_ process: Process) throws {
  try launches.withLock { _ in try process.run() }
}

/// Runs `body` (a posix_spawn of a test's own) under the same lock as `launch`.
public func launchingAlone<T>(_ body: () throws -> T) rethrows -> T {
  try launches.withLock { _ in try body() }
}

private let launches = Mutex(())

/// A child started with posix_spawn (not Foundation's Process, whose run crashed in a memcpy
/// when the test process had hundreds of threads): its three standard files are pipes and it
/// inherits no other descriptor, no blocked signal and no ignored one.
///
/// What a child must not inherit: with hundreds of tests at once, a child started by one test
/// held another test's sockets and pipe ends open (a closed connection never reached its peer,
/// a child's input never ended), and two whole runs at once lost dozens of checks to it.
public struct SpawnedChild: Sendable {
  public let pid: pid_t
  public let stdin: Int32
  public let stdout: Int32
  public let stderr: Int32

  public init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = ChildAttributes()
    defer { attributes.destroy() }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    // The pipes are made close-on-exec under the launch lock, so no other child started at
    // the same moment inherits them (and holds them open).
    var pipes: [[Int32]] = []
    let spawned = launchingAlone { () -> Int32 in
      for _ in 0..<3 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return errno }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        pipes.append(ends)
      }
      posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
      posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
      posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
      closeOtherDescriptors(&actions)
      return posix_spawn(&pid, path, &actions, &attributes.value, argv, envp)
    }
    guard pipes.count == 3 else {
      for end in pipes.joined() { close(end) }
      throw CocoaError(.fileWriteUnknown)
    }
    close(pipes[0][0])
    close(pipes[1][1])
    close(pipes[2][1])
    guard spawned == 0 else {
      close(pipes[0][1])
      close(pipes[1][0])
      close(pipes[2][0])
      throw CocoaError(.executableNotLoadable)
    }
    self.pid = pid
    stdin = pipes[0][1]
    stdout = pipes[1][0]
    stderr = pipes[2][0]
  }

  /// Waits for the child and gives its exit status (128 + the signal when one ended it).
  /// `beforeReaping` runs once it has ended but before its pid is given up (after which the
  /// pid may be another process's): the moment to stop anything that would signal it.
  public func wait(beforeReaping: () -> Void = {}) -> Int32 {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    beforeReaping()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}

/// Ends a spawned child that outlives its time limit.
public final class ChildWatchdog: Sendable {
  private let state = Mutex((fired: false, cancelled: false))

  public init(pid: pid_t, seconds: Double) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      // Under the lock: once `cancel` returns, no signal is on its way to the pid.
      self.state.withLock { state in
        guard !state.cancelled else { return }
        state.fired = true
        kill(pid, SIGTERM)
      }
    }
  }

  /// Called once the child has ended and before it is reaped (`SpawnedChild.wait`).
  public func cancel() { state.withLock { $0.cancelled = true } }
  public var fired: Bool { state.withLock { $0.fired } }
}

/// What a child starts with: no signal blocked and the usual ones at their defaults. The test
/// runner's threads block most signals and a spawned child inherits the mask: a child would
/// never see the SIGTERM or SIGINT a test sends it.
public struct ChildAttributes {
  public var value = posix_spawnattr_t()

  public init() {
    posix_spawnattr_init(&value)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&value, &unblocked)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&value, &defaults)
    posix_spawnattr_setflags(&value, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  public mutating func destroy() { posix_spawnattr_destroy(&value) }
}

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's Glibc module does
/// not import: looked up at run time, and skipped where it is missing.
public func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) {
  typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
    -> Int32
  guard
    let symbol = dlsym(
      UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
  else { return }
  _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
}
