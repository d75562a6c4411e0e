import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The regctl executable, built beside the test bundle.
func regctlURL() throws -> URL { try builtProduct("regctl") }

/// Runs regctl to its end, as a user would from a shell (off the pool, with a watchdog). A
/// token in the developer's own environment would change what `serve` does, so it is left out.
func regctl(_ arguments: [String], input: String? = nil) async throws -> ProcessOutput {
  try await runProcess(
    regctlURL(), arguments, input: input, unset: ["REGSCOPE_ACCESS_TOKEN"])
}

/// The repository's Tests/Fixtures file `name`.
func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/\(name)").path
}

func temporaryFile(_ name: String, _ text: String) throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "regctl-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let url = folder.appendingPathComponent(name)
  try text.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

@Suite("regctl, as a user runs it", .timeLimit(.minutes(10)))
struct RegctlBinaryTests {
  @Test("regctl scenarios lists every built-in with a description")
  func listing() async throws {
    let output = try await regctl(["scenarios"])
    #expect(output.status == 0)
    for name in [
      "initial-registration", "throttle-coalesces", "edit-while-in-flight",
      "unchanged-record-skipped",
      "delay-until-contact-key", "backoff-30-day-outage", "retry-after", "restart-mid-backoff",
      "orphan-anonymous-then-known", "orphan-shared-device", "undefined-attribute-rejected",
      "strategy-anonymous-only", "strategy-known-only", "strategy-both",
    ] {
      #expect(output.stdout.contains(name + " "), "\(name) missing")
    }
    #expect(!output.stdout.contains("cannot be read"))
  }

  @Test("regctl run: a readable timeline, exit 0; --json: the event stream")
  func run() async throws {
    let output = try await regctl(["run", "throttle-coalesces"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("PASS throttle-coalesces"))
    #expect(output.stdout.contains("> tag add sports"))
    let json = try await regctl(["run", "--json", "retry-after"])
    #expect(json.status == 0)
    let lines = json.stdout.split(separator: "\n")
    #expect(lines.count > 10)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["type"] is String, "\(line)")
    }
  }

  @Test("regctl run --json: the summary is a JSON record on standard output, and so is the total")
  func runJSONSummary() async throws {
    let path = try temporaryFile(
      "wrong.yaml",
      "name: wrong\nsteps:\n  - { at: 0s, do: launch }\n  - { at: 2m, expect: \"sent == 3\" }\n")
    let output = try await regctl(["run", "--json", "initial-registration", path])
    #expect(output.status == 1)
    #expect(output.stderr.isEmpty, "\(output.stderr)")
    let records = try output.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
    let summaries = records.filter { $0["type"] as? String == "summary" }
    #expect(summaries.map { $0["scenario"] as? String } == ["initial-registration", "wrong"])
    // What the text summary says, the record says: the registration not processed yet (S2).
    #expect(summaries.last?["passed"] as? Bool == false)
    #expect(summaries.last?["pending"] as? Int == 1)
    #expect(summaries.first?["pending"] as? Int == 0)
    #expect(summaries.first?["distinctContacts"] as? Int == 1)
    let total = try #require(records.last)
    #expect(total["type"] as? String == "total")
    #expect(total["scenarios"] as? Int == 2 && total["passed"] as? Int == 1)
    #expect(total["failed"] as? Int == 1)
    // A scenario that cannot be read is a record too, beside the message on standard error.
    let bad = try await regctl(["run", "--json", "throttle-coalesce"])
    #expect(bad.status == 2)
    let error = try #require(
      JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any])
    #expect(
      error["type"] as? String == "error" && error["scenario"] as? String == "throttle-coalesce")
    #expect((error["message"] as? String)?.contains("did you mean") == true)
    #expect(bad.stderr.contains("did you mean"))
  }

  @Test("a failed expectation exits 1 naming the step, expected and actual")
  func failing() async throws {
    let path = try temporaryFile(
      "wrong.yaml",
      "name: wrong\nsteps:\n  - { at: 0s, do: launch }\n  - { at: 2m, expect: \"sent == 3\" }\n")
    let output = try await regctl(["run", path])
    #expect(output.status == 1)
    #expect(output.stdout.contains("expected sent == 3 at step 2 (\(path):4:24); sent = 1"))
  }

  @Test("a bad scenario exits 2 with file:line:column; a bad name suggests the nearest")
  func badInput() async throws {
    let path = try temporaryFile("typo.yaml", "name: t\nsteps:\n  - { at: 0s, do: \"lanch\" }\n")
    let output = try await regctl(["run", path])
    #expect(output.status == 2)
    #expect(output.stderr.contains("\(path):3:20: step 1: unknown \"lanch\""))
    #expect(output.stderr.contains("Did you mean \"launch\"?"))
    let unknown = try await regctl(["run", "throttle-coalesce"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("did you mean \"throttle-coalesces\"?"))
  }

  @Test(
    "regctl shell, typed into: edits are refused or sent as they happen; the token never prints whole"
  )
  func shellAndState() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-state-\(UUID().uuidString)"
    ).path
    let banner = try await regctl(["shell", "--state", folder], input: "quit\n")
    #expect(banner.status == 0, "\(banner.stderr)")
    #expect(!banner.stdout.contains("demo-access-token-012345"))
    #expect(banner.stdout.contains("demo…(24 chars)"))
    // A million times real time, so the 60 s window passes at once; the test reads the event
    // stream until the registration carrying the tag is acknowledged, then quits.
    let shell = try InteractiveProcess(
      try regctlURL(), ["shell", "--state", folder, "--speed", "1000000", "--json"])
    shell.send("attr set platform x\n")
    let refused = try await shell.readLine { $0.contains(#""type":"inputRejected""#) }
    #expect(refused?.contains("reserved word") == true)
    shell.send("tag add sports\n")
    let sent = try await shell.readLine {
      $0.contains(#""type":"sent""#) && $0.contains(#""sports""#)
    }
    #expect(sent != nil)
    shell.send("quit\n")
    #expect(try await shell.finish() == 0)
    let state = try await regctl(["state", "--state", folder])
    #expect(state.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])
    let acknowledged = try #require(object["lastAcknowledged"] as? [String: Any])
    let body = try #require(acknowledged["body"] as? [String: Any])
    #expect((body["tags"] as? [String])?.contains("sports") == true)
    #expect((object["pending"] as? [Any])?.isEmpty == true)
    let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/device.sqlite")
    #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o600)
  }

  @Test("--sdk chooses the SDK: the same scenario holds for one and fails for another")
  func sdkOption() async throws {
    let android = try await regctl(["run", "--json", "android-throttle"])
    #expect(android.status == 0, "\(android.stdout)")
    let local = android.stdout.split(separator: "\n").first { $0.contains(#""type":"failed""#) }
    #expect(local?.contains(#""local":true"#) == true && local?.contains(#""status":429"#) == true)
    // The documented window: an edit 10 s after a send waits 60 s; ios sends it at 60 s.
    let ios = try await regctl(["run", "--sdk", "ios", "throttle-coalesces"])
    #expect(ios.status == 1)
    #expect(
      ios.stdout.contains("expected nextSend == 70s") && ios.stdout.contains("nextSend = 0:01:00"))
    let bad = try await regctl(["run", "--sdk", "windows", "throttle-coalesces"])
    #expect(bad.status == 64 && bad.stderr.contains("--sdk must be documented|ios|android"))
    // A signed part is no version: refused as any bad --sdk is, saying what a version is.
    for version in ["8.-1.0", "8.+2.+1"] {
      let signed = try await regctl(["run", "--sdk", "android@\(version)", "throttle-coalesces"])
      #expect(signed.status == 64, "\(signed.stdout)")
      #expect(
        signed.stderr.contains("\"\(version)\" is not a version: a version is three whole numbers"),
        "\(signed.stderr)")
    }
  }

  @Test("regctl state --format android writes the SDK's dump; --import reads it back")
  func stateDumpRoundTrip() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-dump-\(UUID().uuidString)"
    ).path
    // Launched and registered, then a tag left pending: inside the 60 s throttle, Android
    // answers the tag's send itself. The shell's clock runs a thousand times slower than
    // real time and `jump` moves it to the tag's send: a test held a minute by a busy machine
    // types it well inside the throttle still.
    let shell = try InteractiveProcess(
      try regctlURL(),
      ["shell", "--state", folder, "--json", "--sdk", "android", "--speed", "0.001"])
    _ = try await shell.readLine { $0.contains(#""type":"sent""#) }
    shell.send("tag add sports\njump\n")
    let refused = try await shell.readLine {
      $0.contains(#""type":"failed""#) && $0.contains(#""local":true"#)
    }
    #expect(refused != nil, "\(shell.account)")
    shell.send("quit\n")
    #expect(try await shell.finish() == 0)
    for (format, title) in [
      ("android", "Android SDK 10.0.0 state dump"), ("ios", "iOS SDK 10.0.0 state dump"),
    ] {
      let dump = try await regctl(["state", "--state", folder, "--format", format])
      #expect(dump.status == 0, "\(dump.stderr)")
      #expect(!dump.stdout.contains("demo-access-token"))
      let file = try temporaryFile("\(format)-dump.json", dump.stdout)
      let reading = try await regctl(["state", "--import", file])
      #expect(reading.status == 0, "\(reading.stderr)")
      #expect(reading.stdout.hasPrefix(title), "\(reading.stdout)")
      #expect(reading.stdout.contains("tag + sports"), "\(reading.stdout)")
    }
    let empty = try await regctl(["state", "--import", ""])
    #expect(empty.status == 64 && empty.stderr.contains("--import needs the path"))
    let broken = try temporaryFile("broken.json", "{\"RegistrationManager\": ")
    let error = try await regctl(["state", "--import", broken])
    #expect(error.status == 2 && error.stderr.contains(broken))
    let json = try await regctl(
      ["state", "--import", fixture("android-sdk-state.json"), "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((object?["findings"] as? [[String: Any]])?.count == 3)
  }

  @Test("regctl state on a damaged store names the file and leaves it alone")
  func damagedState() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-bad-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("device.sqlite").path
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
    let output = try await regctl(["state", "--state", folder.path])
    #expect(output.status == 2)
    #expect(output.stderr.contains(path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x42, count: 4096))
  }
}

/// A child process typed into and read from line by line. It ends when its test lets go of
/// it, and a watchdog ends it past the hang guard, so a broken build fails the test instead of
/// stalling it. Started as `runProcess` starts
/// one: it inherits no other test's descriptors and no blocked signal.
final class InteractiveProcess: Sendable {
  private let child: SpawnedChild
  private let watchdog: ChildWatchdog
  private let output: FileHandle
  /// What was read past the last line taken: touched by one read at a time (each awaited
  /// before the next), behind a lock all the same.
  private let buffer = Mutex("")
  /// The child's standard error, kept so a test that waited in vain can say why it ended.
  private let errorReader: PipeReader
  /// Whether its input is still open, and its exit status once reaped. A descriptor closed
  /// is never written or closed again, and a pid reaped never signalled: either number may
  /// be another's by then.
  private let state = Mutex((inputOpen: true, status: Int32?.none))

  init(_ url: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
    child = try SpawnedChild(
      url.path, arguments,
      environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    // A hang guard twice the tests' own: a child is ended when its test lets go of it.
    watchdog = ChildWatchdog(pid: child.pid, seconds: Double(2 * HangGuard.seconds))
    output = FileHandle(fileDescriptor: child.stdout, closeOnDealloc: true)
    errorReader = PipeReader(FileHandle(fileDescriptor: child.stderr, closeOnDealloc: true))
  }

  deinit {
    closeInput()
    // A child its test did not wait for (it failed, or ended early) ends with it, is reaped,
    // and frees its port: nothing else signals it once this is gone.
    guard state.withLock({ $0.status == nil }) else { return }
    kill(child.pid, SIGTERM)
    let (child, watchdog) = (child, watchdog)
    Thread { _ = child.wait(beforeReaping: watchdog.cancel) }.start()
  }

  /// Writes to the child's input. A child that has gone (its input closed) is not a crash of
  /// the test run: the write is dropped, and the next `readLine` finds the output ended.
  func send(_ text: String) {
    let bytes = Array(text.utf8)
    state.withLock { state in
      guard state.inputOpen else { return }
      var sent = 0
      while sent < bytes.count {
        let count = bytes.withUnsafeBytes {
          write(child.stdin, $0.baseAddress! + sent, $0.count - sent)
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        sent += count
      }
    }
  }

  var processIdentifier: Int32 { child.pid }

  /// SIGTERM, as `kill` sends it.
  func terminate() { signal(SIGTERM) }

  /// Sends `number`, unless the child has been reaped.
  func signal(_ number: Int32) {
    state.withLock { state in
      if state.status == nil { kill(child.pid, number) }
    }
  }

  /// What the child has written to standard error so far, and how it ended if it has.
  var account: String {
    let how = state.withLock { $0.status }.map { "ended with \($0)" } ?? "not waited for"
    return "\(how); stderr: \(String(decoding: errorReader.soFar, as: UTF8.self).suffix(2000))"
  }

  /// The first line that satisfies `match`, or nil if the output ends first. Reads off the
  /// cooperative pool, since it blocks until the child writes.
  func readLine(where match: @escaping @Sendable (String) -> Bool) async throws -> String? {
    try await offThePool { self.blockingReadLine(where: match) }
  }

  private func blockingReadLine(where match: (String) -> Bool) -> String? {
    while true {
      let found = buffer.withLock { buffer -> String? in
        while let newline = buffer.firstIndex(of: "\n") {
          let line = String(buffer[..<newline])
          buffer.removeSubrange(...newline)
          if match(line) { return line }
        }
        return nil
      }
      if let found { return found }
      let chunk = output.availableData
      if chunk.isEmpty { return nil }
      buffer.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
    }
  }

  /// Closes the child's input and waits for it to end; its exit status (128 + a signal).
  func finish() async throws -> Int32 {
    closeInput()
    return try await offThePool {
      if let status = self.state.withLock({ $0.status }) { return status }
      let status = self.child.wait {
        self.watchdog.cancel()
        // Marked before the pid is given up, so `signal` never reaches its next owner.
        self.state.withLock { $0.status = -1 }
      }
      self.state.withLock { $0.status = status }
      return status
    }
  }

  private func closeInput() {
    state.withLock { state in
      guard state.inputOpen else { return }
      state.inputOpen = false
      close(child.stdin)
    }
  }
}

@Suite("regctl fleet, as a user runs it", .timeLimit(.minutes(10)))
struct FleetBinaryTests {
  @Test("a write that fails (/dev/full) is an error naming the file, exit 1; nothing silent")
  func failedWrites() async throws {
    for option in ["--csv", "--svg"] {
      let result = try await runProcess(
        try regctlURL(), ["fleet", "--devices", "50", option, "/dev/full"])
      #expect(result.status == 1, "\(option)")
      #expect(
        result.stderr.contains("\(option) /dev/full: cannot be written (No space left on device)"))
    }
    // Standard output on /dev/full: the shell opens it, regctl finds out when it writes.
    let shell = try await runProcess(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "\"$0\" fleet --devices 50 > /dev/full", try regctlURL().path])
    #expect(shell.status == 1)
    #expect(shell.stderr.contains("cannot write to standard output: No space left on device"))
    // A regular file is still written whole.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fleet-\(UUID().uuidString).csv"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let written = try await runProcess(
      try regctlURL(), ["fleet", "--devices", "50", "--days", "1", "--csv", path])
    #expect(written.status == 0)
    #expect(
      (try? String(contentsOfFile: path, encoding: .utf8))?.hasPrefix("t,anonymous-only") == true)
  }

  @Test("the three strategies side by side, JSON for CI, and clear errors for bad options")
  func fleet() async throws {
    let text = try await runProcess(
      try regctlURL(), ["fleet", "--devices", "2000", "--outage", "5d+6h:503", "--seed", "3"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("anonymous-only  known-only      both"))
    #expect(text.stdout.contains("orphaned (unreachable, billed)"))
    #expect(text.stdout.contains("peak per minute after the outage"))
    // How long it ran, rounded as a person reads it.
    #expect(text.stdout.firstMatch(of: #/ran in \d+\.\d s\n/#) != nil, "\(text.stdout)")
    let json = try await runProcess(
      try regctlURL(), ["fleet", "--devices", "500", "--strategy", "both", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((object?["strategies"] as? [[String: Any]])?.first?["strategy"] as? String == "both")
    for (arguments, says) in [
      (["--devices", "0"], "--devices must be 1"),
      (["--devices", "99999999999999999999"], "--devices"),
      (["--strategy", "everything"], "expected anonymous-only, known-only, both or all"),
      (["--outage", "5d"], "--outage: expected START+DURATION"),
      (["--login-share", "nan"], "--login-share must be a share from 0 to 1"),
      (["--days", "1e300"], "--days must be above 0"),
      (["--outage", "40d+1h:503"], "it starts after the run ends (--days 30)"),
    ] {
      let refused = try await runProcess(try regctlURL(), ["fleet"] + arguments)
      #expect(refused.status != 0, "\(arguments)")
      #expect(refused.stderr.contains(says), "\(arguments): \(refused.stderr)")
    }
  }
}
