import Foundation
import TestSupport
import Testing

/// What must never reach a terminal raw: ESC, C0 (but newline), DEL, C1, bidi controls.
func rawControls(in text: String) -> [String] {
  text.unicodeScalars.filter { scalar in
    switch scalar.value {
    case 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }.map { String(format: "U+%04X", $0.value) }
}

@Suite(
  "regctl with hostile input: clear errors, nothing raw on the terminal", .timeLimit(.minutes(10)))
struct HostileInputTests {
  @Test("durations past a year are refused with file:line:col, never trap")
  func hugeDurations() async throws {
    let at = try temporaryFile(
      "huge.yaml", "name: huge\nsteps:\n  - { at: 99999999999999999999s, do: launch }\n")
    let output = try await regctl(["run", at])
    #expect(output.status == 2)
    #expect(output.stderr.contains("\(at):3:11: at: \"99999999999999999999s\" is too long"))
    let timeout = try temporaryFile(
      "timeout.yaml",
      "name: t\nconfig: { requestTimeout: 601s }\nsteps:\n  - { at: 0s, do: launch }\n")
    let refused = try await regctl(["run", timeout])
    #expect(refused.status == 2)
    #expect(
      refused.stderr.contains("\(timeout):2:27: requestTimeout must be above 0 and at most 10 min"))
    let serve = try await regctl([
      "serve", "--app-id", "a", "--access-token", "t", "--processing-delay",
      "99999999999999999999d",
    ])
    #expect(serve.status == 64)
    #expect(serve.stderr.contains("--processing-delay: \"99999999999999999999d\" is too long"))
  }

  @Test("the command language refuses huge numbers in run and shell, and the shell goes on")
  func hugeCommandValues() async throws {
    let scenario = try temporaryFile(
      "fault.yaml",
      """
      name: fault
      steps:
        - { at: 0s, do: "server fail 429 retry-after 99999999999999999999" }

      """)
    let run = try await regctl(["run", scenario])
    #expect(run.status == 2)
    #expect(run.stderr.contains("retry-after: \"99999999999999999999\" is too long"))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-hostile-\(UUID().uuidString)"
    ).path
    let shell = try await regctl(
      ["shell", "--state", folder],
      input:
        "server fail 429 retry-after 99999999999999999999\nserver fail 503 times 1e20\nwait 1e400\nstate\nquit\n"
    )
    #expect(shell.status == 0, "\(shell.stderr)")
    #expect(shell.stdout.contains("is too long: durations go up to 366 d"))
    #expect(shell.stdout.contains("expected a whole number from 1 to 1000000"))
    #expect(shell.stdout.contains("\"record\""))  // the shell went on to the next command
  }

  @Test("the shell: an unknown word lists the shell's own words too; QUIT quits as quit does")
  func shellWords() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-words-\(UUID().uuidString)"
    ).path
    let shell = try await regctl(["shell", "--state", folder], input: "flarp\nQUIT\nstate\n")
    #expect(shell.status == 0, "\(shell.stderr)")
    #expect(shell.stdout.contains("the shell's own: help, state, wait DURATION, jump, quit"))
    #expect(!shell.stdout.contains("\"record\""), "QUIT did not quit: state ran after it")
  }

  @Test("escape sequences in a scenario, its YAML error or its data never print raw")
  func noRawEscapes() async throws {
    let described = try temporaryFile(
      "title.yaml",
      "name: title\ndescription: \"\\e]0;pwned\\a \\u009B31m \\u202Eevil\"\nsteps:\n  - { at: 0s, do: launch }\n  - { at: 1s, do: \"tag add \\\"\\e[2J\\u009Bx\\u202E\\\"\" }\n"
    )
    let run = try await regctl(["run", described])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(rawControls(in: run.stdout) == [], "\(run.stdout)")
    #expect(run.stdout.contains("\\e]0;pwned"))
    let json = try await regctl(["run", "--json", described])
    #expect(rawControls(in: json.stdout) == [])
    #expect(json.stdout.contains("\\u009b"))
    #expect(json.stdout.contains("\\u202e"))
    let broken = try temporaryFile("broken.yaml", "name: \u{1B}]0;pwned\u{07}\nsteps: [\n")
    let error = try await regctl(["run", broken])
    #expect(error.status == 2)
    #expect(rawControls(in: error.stderr) == [], "\(error.stderr)")
  }

  @Test("the shell and the state dump escape data from the store")
  func shellAndStateEscape() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-escape-\(UUID().uuidString)"
    ).path
    let shell = try await regctl(
      ["shell", "--state", folder],
      input: "attr set CODE \"\u{1B}]0;x\u{07}\u{9B}1m\u{202E}\"\nstate\nquit\n")
    #expect(shell.status == 0)
    #expect(rawControls(in: shell.stdout) == [], "\(shell.stdout)")
    let state = try await regctl(["state", "--state", folder])
    #expect(state.status == 0)
    #expect(rawControls(in: state.stdout) == [], "\(state.stdout)")
    let object = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any]
    let record = object?["record"] as? [String: Any]
    // Escaped, not altered: the JSON still holds the exact value.
    #expect(
      (record?["attributes"] as? [String: String])?["CODE"] == "\u{1B}]0;x\u{07}\u{9B}1m\u{202E}")
  }

  @Test("an access token from a file or the environment, never required on the command line")
  func accessTokenSources() async throws {
    let none = try await regctl(["serve", "--app-id", "a", "--port", "0"])
    #expect(none.status == 64)
    #expect(none.stderr.contains("--access-token-file FILE, REGSCOPE_ACCESS_TOKEN"))
    let unreadable = try await regctl([
      "serve", "--app-id", "a", "--access-token-file", "/nonexistent/token", "--port", "0",
    ])
    #expect(unreadable.status == 64)
    #expect(unreadable.stderr.contains("/nonexistent/token cannot be read"))
    let control = try temporaryFile("token", "bad\u{1B}token\n")
    let bad = try await regctl([
      "serve", "--app-id", "a", "--access-token-file", control, "--port", "0",
    ])
    #expect(bad.status == 64)
    #expect(rawControls(in: bad.stderr) == [])
  }

  @Test("a configuration name with control characters is quoted escaped in the error")
  func configNameEscaped() async throws {
    let config = try temporaryFile(
      "config.json",
      #"[{"name":"n","appid":"a","accesstoken":"t","marketingcloudserverurl":"http://127.0.0.1:9"}]"#
    )
    let output = try await regctl([
      "shell", "--config", config, "--config-name", "x\u{1B}]0;y\u{07}",
    ])
    #expect(output.status != 0)
    #expect(output.stderr.contains(#""x\e]0;y\x07""#), "\(output.stderr)")
    #expect(rawControls(in: output.stderr) == [])
  }

  @Test("a store that exists but cannot be opened says so, and is left alone")
  func storeCannotOpen() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regctl-unopenable-\(UUID().uuidString)")
    let store = folder.appendingPathComponent("device.sqlite")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    let output = try await regctl(["shell", "--state", folder.path], input: "quit\n")
    #expect(output.status == 2)
    #expect(output.stderr.contains("cannot open the state store at \(store.path)"))
    #expect(!output.stderr.contains("cannot create"))
  }
}
