import Foundation
import TestSupport
import Testing

/// `regscope --judge FILE`: a capture in the receiver's layout, read-only, in a real terminal.
@Suite("regscope on a capture (tmux)", .serialized, .timeLimit(.minutes(10)))
struct JudgeCaptureScreenTests {
  /// Two Android devices, each entry a HAR 1.2 entry as a browser exports it.
  static func capture() -> String {
    func entry(_ device: String, _ time: String, status: Int) -> String {
      let body = sdkBody(device: device, platform: "Android", app: "app")
      let quoted = String(
        decoding: try! JSONSerialization.data(withJSONObject: [body]), as: UTF8.self
      ).dropFirst().dropLast()
      return
        #"{"startedDateTime":"\#(time)","time":20,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1","headers":[{"name":"User-Agent","value":"\#(androidAgent)"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":\#(quoted)}},"response":{"status":\#(status),"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":20,"receive":0}}"#
    }
    let entries = [
      entry("GOOD-PHONE", "2026-11-22T10:00:00.000Z", status: 201),
      entry("EAGER-PHONE", "2026-11-22T10:00:10.000Z", status: 503),
      entry("EAGER-PHONE", "2026-11-22T10:00:12.000Z", status: 201),
      entry("EAGER-PHONE", "2026-11-22T10:00:14.000Z", status: 201),
    ]
    return
      #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[\#(entries.joined(separator: ","))]}}"#
  }

  @Test("the capture's devices, their timelines and findings; Up/Down choose; edits are refused")
  func capture() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "judge-\(UUID().uuidString).har"
    ).path
    try Self.capture().write(toFile: path, atomically: true, encoding: .utf8)
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--judge \(path)")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the capture's devices and findings") { screen in
        // One early send is a note (the app went to the background?); the same record again, one
        // violation.
        screen.contains("capture: ") && screen.contains("captured, read-only")
          && screen.contains("EAGER-PHONE") && screen.contains("GOOD-PHONE")
          && screen.contains("1 violation") && screen.contains("backgroundSend")
          && screen.contains("throttleViolated")
      })
    // Down chooses the other device: its timeline has one registration and no finding.
    try await tmux.keys("Down")
    #expect(
      await tmux.waitFor("the good device chosen") { screen in
        screen.contains("> GOOD-PHONE") && screen.contains("none: this app keeps to the rules")
      })
    // A capture is read-only: the keys that change things are not offered.
    try await tmux.keys("e")
    #expect(
      await tmux.waitFor("the refusal") { screen in
        !screen.contains("server fail") || screen.contains("read-only")
          || screen.contains("no device")
      })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test("a capture that cannot be read: the error, exit 2, the terminal untouched")
  func unreadable() async throws {
    let output = try await runProcess(
      try regscopeURL(), ["--judge", "/nonexistent/capture.har"])
    #expect(output.status == 2)
    #expect(
      output.stderr.contains("/nonexistent/capture.har") && output.stderr.contains("cannot be read")
    )
  }
}
