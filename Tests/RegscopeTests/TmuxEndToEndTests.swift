import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Drives the real regscope binary in tmux, as a person would: type, watch, resize, quit.
struct Tmux {
  let socket = "regscope-test-\(UUID().uuidString.prefix(8))"
  let session = "inspector"

  /// Runs a tmux command and waits for it. Foundation's Process, off the main thread, never
  /// sees a tmux client exit once the client has forked the tmux server, so commands go
  /// through posix_spawn and waitpid, with the child's standard files on /dev/null.
  @discardableResult
  func run(_ arguments: [String]) throws -> Int32 {
    let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environment =
      ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in environment { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [Int32(0), 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environment)
    guard spawned == 0 else { throw CocoaError(.executableNotLoadable) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
  }

  /// The pane's text. capture-pane starts no server, so Process is safe for it.
  func capture() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", socket, "capture-pane", "-t", session, "-p"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  var screen: String { capture() }

  func keys(_ keys: String...) throws { try run(["send-keys", "-t", session] + keys) }

  /// Polls the screen until `condition` holds or 20 s pass. The screen of another process
  /// cannot be awaited, so this is the one place a test polls; the interval is short and the
  /// loop ends as soon as the condition holds.
  func waitFor(_ what: String, _ condition: (String) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if condition(screen) { return true }
      usleep(50_000)
    }
    Issue.record("timed out waiting for \(what); the screen was:\n\(screen)")
    return false
  }

  /// Starts regscope in a 120x40 session; the shell prints its exit status when it ends.
  func startRegscope(environment: String = "") throws -> String {
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-e2e-\(UUID().uuidString)").path
    let binary = try regscopeURL().path
    try run([
      "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
      "TERM=xterm-256color \(environment) \(binary) --state \(state); echo REGSCOPE-EXIT=$?; sleep 60",
    ])
    return state
  }

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
  }
}

func regscopeURL() throws -> URL {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
  ].map { $0.appendingPathComponent("regscope") }
  guard
    let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else { throw CocoaError(.fileNoSuchFile) }
  return found
}

@Suite("regscope in a real terminal (tmux)", .serialized)
struct TmuxEndToEndTests {
  @Test(
    "type :tag add sports, see it pending, jump to the deadline, see it sent, resize, q quits cleanly"
  )
  func tagFlow() throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    let state = try tmux.startRegscope()
    defer { _ = try? tmux.run(["kill-server"]) }
    #expect(
      tmux.waitFor("the first frame") {
        $0.contains("1 Contact record") && $0.contains("7 Payload")
      })
    #expect(tmux.waitFor("the initial registration") { $0.contains("201 received") })
    try tmux.keys(":tag add sports", "Enter")
    #expect(
      tmux.waitFor("the tag under Pending changes") { screen in
        screen.contains("+ sports") && screen.contains("next send in")
      })
    try tmux.keys("n")
    #expect(
      tmux.waitFor("the send") { screen in
        screen.contains("nothing pending")
          && screen.components(separatedBy: "201 received").count == 3
      })
    try tmux.run(["resize-window", "-t", tmux.session, "-x", "80", "-y", "24"])
    #expect(tmux.waitFor("the compact layout") { $0.contains("5 Events · 6 server · 7 payload") })
    try tmux.run(["resize-window", "-t", tmux.session, "-x", "60", "-y", "20"])
    #expect(tmux.waitFor("the too-small screen") { $0.contains("too small: need 80x24") })
    try tmux.keys("q")
    #expect(
      tmux.waitFor("a clean exit") { screen in
        screen.contains("REGSCOPE-EXIT=0") && !screen.contains("Contact record")
          && !screen.contains("too small")
      })
    let log = try? String(contentsOfFile: state + "/regscope.log", encoding: .utf8)
    #expect(log?.isEmpty ?? true, "stderr wrote: \(log ?? "")")
  }

  @Test("a 503 injected from the keyboard shows in the Backoff pane")
  func backoffFlow() throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    _ = try tmux.startRegscope(environment: "NO_COLOR=1")
    defer { _ = try? tmux.run(["kill-server"]) }
    #expect(tmux.waitFor("the initial registration") { $0.contains("201 received") })
    try tmux.keys("e")
    #expect(tmux.waitFor("the fault") { $0.contains("answer 503 for the next 3") })
    try tmux.keys(":attr set CODE FREE99", "Enter")
    #expect(tmux.waitFor("the pending edit") { $0.contains("CODE = \"FREE99\"") })
    try tmux.keys("n")
    #expect(
      tmux.waitFor("the failure") { $0.contains("1 failure in a row") && $0.contains("HTTP 503") })
    try tmux.keys("q")
    #expect(tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }
}
