import Foundation
import Synchronization

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
  environment: [String: String] = [:], unset: Set<String> = [], timeLimit: Double = 60
) async throws -> ProcessOutput {
  try await offThePool {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .filter { !unset.contains($0.key) }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try launch(process)
    let watchdog = Watchdog(process: process, seconds: timeLimit)
    let stdoutReader = PipeReader(out.fileHandleForReading)
    let stderrReader = PipeReader(err.fileHandleForReading)
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try? inPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    // Once the child has ended, its output is in the pipes. A grandchild that inherited a
    // pipe could hold it open far longer; what the child wrote is read by then.
    let stdout = stdoutReader.wait(seconds: 5)
    let stderr = stderrReader.wait(seconds: 5)
    return ProcessOutput(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self), timedOut: watchdog.fired)
  }
}

/// A program found on PATH, through /usr/bin/env.
public func runTool(
  _ name: String, _ arguments: [String], input: String? = nil, timeLimit: Double = 60
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
final class PipeReader: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let data = Mutex(Data())

  init(_ handle: FileHandle) {
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
  func wait(seconds: Double) -> Data {
    _ = done.wait(timeout: .now() + seconds)
    return data.withLock { $0 }
  }
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
