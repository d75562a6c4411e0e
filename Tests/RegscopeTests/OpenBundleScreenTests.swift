import Foundation
import TestSupport
import Testing

/// `regscope --open FILE` (#54): a debug bundle that `regctl bundle` made, reopened in a real
/// terminal, read-only and offline.
@Suite("regscope on a debug bundle (tmux)", .serialized, .timeLimit(.minutes(10)))
struct OpenBundleScreenTests {
  /// A capture of one Android device that sends a reserved attribute (R2.5) and one the
  /// demographics table lacks (S5).
  static func capture() -> String {
    let body = sdkBody(
      device: "BUNDLED-PHONE", platform: "Android", app: "app", key: "carol@example.com",
      attributes: ["contactKey": "k-1", "FavoriteTeam": "Lions", "Shoe": "42"])
    let quoted = String(
      decoding: try! JSONSerialization.data(withJSONObject: [body]), as: UTF8.self
    ).dropFirst().dropLast()
    let entry =
      #"{"startedDateTime":"2026-11-22T10:00:00.000Z","time":20,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1","headers":[{"name":"User-Agent","value":"\#(androidAgent)"},{"name":"Authorization","value":"Bearer live-secret-token-0123456789"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":\#(quoted)}},"response":{"status":201,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":20,"receive":0}}"#
    return
      #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[\#(entry)]}}"#
  }

  @Test("the device, its finding and a field's story; where the bundle came from; read-only")
  func reopened() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "open-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let har = folder.appendingPathComponent("session.har").path
    try Self.capture().write(toFile: har, atomically: true, encoding: .utf8)
    let zip = folder.appendingPathComponent("ticket.zip").path
    let made = try await runProcess(
      try builtProduct("regctl"),
      ["bundle", "--har", har, "--defined-attributes", "FavoriteTeam,contactKey", "-o", zip])
    try #require(made.status == 0, "\(made.stderr)")
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--open \(zip)")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the device and its findings, and where the bundle came from") { screen in
        screen.contains("bundle ") && screen.contains("made from files")
          && screen.contains("BUNDLED-PHONE") && screen.contains("reservedAttribute")
          && screen.contains("undefinedAttribute")
      })
    // W: the Fields pane, replayed with the bundle's table; Enter: the chosen field's story.
    try await tmux.keys("W")
    #expect(
      await tmux.waitFor("the Fields pane") { screen in
        screen.contains("Fields: why each did or did not arrive") && screen.contains("FavoriteTeam")
          && screen.contains("Shoe")
      })
    try await tmux.keys("Enter")
    #expect(
      await tmux.waitFor("a field's story") { screen in
        screen.contains("Field contact key") && screen.contains("#1 rejected \"carol@example.com\"")
      })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test("B in --receive: the chosen device's bundle written, its path said; regctl judges it")
  func bundleKey() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let port = try #require(freeLoopbackPort())
    let tmux = Tmux()
    let state = try await tmux.startRegscope(arguments: "--receive --port \(port)")
    defer { tmux.killServer() }
    #expect(await tmux.waitFor("the receiver") { $0.contains("no app has registered yet") })
    let body = sdkBody(
      device: "KEYED-PHONE", app: watchAppID, key: "dave@example.com",
      attributes: ["contactKey": "k-2"])
    let posted = try await runTool(
      "curl",
      [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
        "http://127.0.0.1:\(port)/device/v1/registration", "-H", "user-agent: \(androidAgent)",
        "-H", "authorization: Bearer \(watchToken)", "-d", body,
      ])
    #expect(posted.stdout == "201")
    #expect(await tmux.waitFor("the device") { $0.contains("KEYED-PHONE") })
    try await tmux.keys("B")
    var said = ""
    #expect(
      await tmux.waitFor("the bundle's path at the bottom") { screen in
        said = screen
        return screen.contains("bundle written: ")
      })
    let files = try FileManager.default.contentsOfDirectory(atPath: state).filter {
      $0.hasPrefix("regscope-bundle-KEYED-PHONE-") && $0.hasSuffix(".zip")
    }
    try #require(files.count == 1, "\(said)")
    let judged = try await runProcess(
      try builtProduct("regctl"),
      ["judge", "--json", "--fail-on", "never", state + "/" + files[0]])
    #expect(judged.status == 0 && judged.stdout.contains("reservedAttribute"), "\(judged.stderr)")
    #expect(!judged.stdout.contains(watchToken))
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test("a file that is not a bundle: the error, exit 2")
  func notABundle() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "not-\(UUID().uuidString).zip"
    ).path
    try "not a zip".write(toFile: path, atomically: true, encoding: .utf8)
    let output = try await runProcess(try regscopeURL(), ["--open", path])
    #expect(output.status == 2)
    #expect(output.stderr.contains("is not a zip file"), "\(output.stderr)")
  }
}
