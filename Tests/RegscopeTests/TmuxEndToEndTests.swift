import Foundation
import TestSupport
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
  func run(_ arguments: [String]) async throws -> Int32 {
    try await offThePool { try self.blockingRun(arguments) }
  }

  /// For `defer`, which cannot await: kill-server returns at once.
  func killServer() { _ = try? blockingRun(["kill-server"]) }

  private func blockingRun(_ arguments: [String]) throws -> Int32 {
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
    // Nothing else goes with it: the tmux server outlives this call (its pane ends in
    // `sleep 600`), and a pipe of another test's child that it inherited would keep that test
    // waiting for end-of-file for a minute.
    closeOtherDescriptors(&actions)
    // The test process's threads block most signals, and a spawned child inherits the mask:
    // the tmux server and the regscope in its pane then never took kill-server's SIGHUP, and
    // every run left its terminals behind. The child starts with no signal blocked.
    var attributes = ChildAttributes()
    defer { attributes.destroy() }
    var pid: pid_t = 0
    let spawned = launchingAlone {
      posix_spawnp(&pid, "tmux", &actions, &attributes.value, argv, environment)
    }
    guard spawned == 0 else { throw CocoaError(.executableNotLoadable) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
  }

  /// The pane's text. capture-pane starts no server, so Process is safe for it.
  func capture() async -> String {
    let output = try? await runTool(
      "tmux", ["-L", socket, "capture-pane", "-t", session, "-p"], timeLimit: 60)
    return output?.stdout ?? ""
  }

  func keys(_ keys: String...) async throws { try await run(["send-keys", "-t", session] + keys) }

  /// Polls the screen until `condition` holds or the hang guard passes. The screen of another process
  /// cannot be awaited, so this is the one place a test polls; the interval is short and the
  /// loop ends as soon as the condition holds.
  func waitFor(_ what: String, _ condition: (String) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(HangGuard.seconds)
    while ContinuousClock.now < deadline {
      if condition(await capture()) { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("timed out waiting for \(what); the screen was:\n\(await capture())")
    return false
  }

  /// Starts regscope in a 120x40 session; the shell prints its exit status when it ends.
  func startRegscope(environment: String = "", arguments: String = "") async throws -> String {
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("regscope-e2e-\(UUID().uuidString)").path
    let binary = try regscopeURL().path
    try await run([
      "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
      "TERM=xterm-256color \(environment) \(binary) --state \(state) \(arguments); echo REGSCOPE-EXIT=$?; sleep 600",
    ])
    return state
  }

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
  }
}

func regscopeURL() throws -> URL { try builtProduct("regscope") }

@Suite("regscope in a real terminal (tmux)", .serialized, .timeLimit(.minutes(10)))
struct TmuxEndToEndTests {
  @Test(
    "type :tag add sports, see it pending, jump to the deadline, see it sent, resize, q quits cleanly"
  )
  func tagFlow() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    let state = try await tmux.startRegscope()
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the first frame") {
        $0.contains("1 Contact record") && $0.contains("7 Payload")
      })
    #expect(await tmux.waitFor("the initial registration") { $0.contains("201 received") })
    try await tmux.keys(":tag add sports", "Enter")
    #expect(
      await tmux.waitFor("the tag under Pending changes") { screen in
        screen.contains("+ sports") && screen.contains("next send in")
      })
    try await tmux.keys("n")
    #expect(
      await tmux.waitFor("the send") { screen in
        screen.contains("nothing pending")
          && screen.components(separatedBy: "201 received").count == 3
      })
    try await tmux.run(["resize-window", "-t", tmux.session, "-x", "80", "-y", "24"])
    #expect(
      await tmux.waitFor("the compact layout") { $0.contains("5 Events · 6 server · 7 payload") })
    try await tmux.run(["resize-window", "-t", tmux.session, "-x", "60", "-y", "20"])
    #expect(await tmux.waitFor("the too-small screen") { $0.contains("too small: need 80x24") })
    try await tmux.keys("q")
    #expect(
      await tmux.waitFor("a clean exit") { screen in
        screen.contains("REGSCOPE-EXIT=0") && !screen.contains("Contact record")
          && !screen.contains("too small")
      })
    let log = try? String(contentsOfFile: state + "/regscope.log", encoding: .utf8)
    #expect(log?.isEmpty ?? true, "stderr wrote: \(log ?? "")")
  }

  @Test("a 503 injected from the keyboard shows in the Backoff pane")
  func backoffFlow() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    _ = try await tmux.startRegscope(environment: "NO_COLOR=1")
    defer { tmux.killServer() }
    #expect(await tmux.waitFor("the initial registration") { $0.contains("201 received") })
    try await tmux.keys("e")
    #expect(await tmux.waitFor("the fault") { $0.contains("answer 503 for the next 3") })
    try await tmux.keys(":attr set CODE FREE99", "Enter")
    #expect(await tmux.waitFor("the pending edit") { $0.contains("CODE = \"FREE99\"") })
    try await tmux.keys("n")
    #expect(
      await tmux.waitFor("the failure") {
        $0.contains("1 failure in a row") && $0.contains("HTTP 503")
      })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test(
    "--import-state opens on an Android dump, read-only: the record, the pending edits, refusals")
  func importedDump() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/android-sdk-state.json").path
    _ = try await tmux.startRegscope(arguments: "--import-state \(dump)")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the imported device") { screen in
        screen.contains("imported:") && screen.contains("sdk android")
          && screen.contains("contact key test") && screen.contains("tag + news")
      })
    try await tmux.keys(":tag add x", "Enter")
    #expect(await tmux.waitFor("the refusal") { $0.contains("is read-only") })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test(
    "--receive: a real-shaped Android app registers a change, then the same body again: a note, then one violation"
  )
  func receiver() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let port = try #require(freeLoopbackPort())
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--receive --port \(port)")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the empty receiver, saying where to point the app") { screen in
        screen.contains("no app has registered yet")
          && screen.contains("http://127.0.0.1:\(port)")
          && screen.contains("http://10.0.2.2:\(port)")
      })
    let body =
      #"{"app_Version":"1.0","attributes":[],"dST":false,"deviceID":"PIXEL-8","etAppId":"0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b","hwid":"Google Pixel 8","locale":"en_US","location_Enabled":false,"platform":"Android","platform_Version":"14","proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,"sdk_Version":"10.0.0","tags":["ALL"],"timeZone":"0"}"#
    // First contact: a request with another app's token is shown with the reason and the fix.
    let refused = try await runTool(
      "curl",
      [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
        "http://127.0.0.1:\(port)/device/v1/registration",
        "-H", "authorization: Bearer another-apps-token-000000",
        "-d", body.replacingOccurrences(of: "PIXEL-8", with: "WRONG-TOKEN"),
      ])
    #expect(refused.stdout == "401")
    #expect(
      await tmux.waitFor("the refused device, with the reason") { screen in
        screen.contains("WRONG-TOKEN") && screen.contains("refused 1x (401)")
      })
    for tag in ["a", "b", "b"] {
      let posted = try await runTool(
        "curl",
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
          "http://127.0.0.1:\(port)/device/v1/registration",
          "-H",
          "user-agent: MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
          "-H", "authorization: Bearer demo-access-token-012345",
          "-H", "content-type: application/json",
          "-d", body.replacingOccurrences(of: #"["ALL"]"#, with: #"["ALL","\#(tag)"]"#),
        ])
      #expect(posted.stdout == "201", "\(posted.stderr)")
    }
    // The refused device, shown first, stays chosen as PIXEL-8 registers above it; Up is
    // PIXEL-8.
    #expect(await tmux.waitFor("PIXEL-8 listed") { $0.contains("Devices (2)") })
    #expect(await tmux.waitFor("the first device, still chosen") { $0.contains("> WRONG-TOKEN ") })
    try await tmux.keys("Up")
    #expect(
      await tmux.waitFor("the device and its finding") { screen in
        screen.contains("PIXEL-8") && screen.contains("Android SDK 10.0.0")
          && screen.contains("backgroundSend") && screen.contains("throttleViolated")
          && screen.contains("R3.2") && screen.contains("1 violation")
      })
    // Many devices: Down past the 14th keeps the marker on screen.
    for index in 0..<20 {
      _ = try await runTool(
        "curl",
        [
          "-s", "-o", "/dev/null", "-X", "POST",
          "http://127.0.0.1:\(port)/device/v1/registration",
          "-H", "authorization: Bearer demo-access-token-012345",
          "-d", body.replacingOccurrences(of: "PIXEL-8", with: "MANY-\(index)"),
        ])
    }
    #expect(await tmux.waitFor("twenty more devices") { $0.contains("Devices (22)") })
    // The device chosen stays chosen as twenty others register above it: the list re-sorts
    // under the cursor, and the cursor follows the device, not the row.
    #expect(await tmux.waitFor("PIXEL-8, still chosen") { $0.contains("> PIXEL-8 ") })
    try await tmux.keys("g")
    #expect(await tmux.waitFor("the newest device chosen") { $0.contains("> MANY-19 ") })
    // One key at a time: an arrow's escape sequence split across reads by a busy machine
    // would be taken for Escape, as in any curses program.
    for step in 1...16 {
      try await tmux.keys("Down")
      #expect(
        await tmux.waitFor("the marker on MANY-\(19 - step)") {
          $0.contains("> MANY-\(19 - step) ")
        })
    }
    #expect(
      await tmux.waitFor("the marker on the 17th device, on screen") { screen in
        screen.contains("> MANY-3 ") && screen.contains("of 22 devices")
      })
    // G chooses the last device (the first seen) and the list shows it; g the first.
    try await tmux.keys("G")
    #expect(await tmux.waitFor("the last device chosen") { $0.contains("> WRONG-TOKEN ") })
    try await tmux.keys("g")
    #expect(await tmux.waitFor("the first device chosen") { $0.contains("> MANY-19 ") })
    // PIXEL-8's findings overflow their pane: 3 focuses it, Page Down and G scroll it.
    try await tmux.keys("G")
    #expect(await tmux.waitFor("the last device again") { $0.contains("> WRONG-TOKEN ") })
    try await tmux.keys("Up")
    #expect(await tmux.waitFor("PIXEL-8 chosen") { $0.contains("> PIXEL-8 ") })
    try await tmux.keys("3")
    try await tmux.keys("NPage")
    #expect(
      await tmux.waitFor("the Findings pane scrolled") { screen in
        screen.range(of: #" [2-9]\d*-\d+ of \d+ lines "#, options: .regularExpression) != nil
      })
    // ? lists the keys that work here, not the device's.
    try await tmux.keys("?")
    #expect(
      await tmux.waitFor("the receiver's keys") { screen in
        screen.contains("Go to that pane: devices") && !screen.contains("Edit attributes")
          && !screen.contains("Jump time")
      })
    try await tmux.keys("Escape")
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }
}

@Suite("regscope when its terminal fails", .serialized, .timeLimit(.minutes(10)))
struct TerminalLossTests {
  @Test("EIO on the terminal (regscope under timeout, a background job) ends it cleanly, exit 1")
  func eioEnds() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let tmux = Tmux()
    // timeout runs regscope in the background: its reads of the terminal fail with EIO.
    _ = try await tmux.startRegscope(environment: "timeout 600", arguments: "--receive --port 0")
    defer { tmux.killServer() }
    #expect(await tmux.waitFor("the receiver") { $0.contains("receiving") })
    try await tmux.keys("x")
    #expect(
      await tmux.waitFor("a clean exit with the reason") { screen in
        screen.contains("REGSCOPE-EXIT=1") && screen.contains("reading the terminal failed")
      })
  }
}
