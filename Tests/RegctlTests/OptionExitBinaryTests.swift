import Foundation
import TestSupport
import Testing

/// A wrong option is exit 64 in every regctl subcommand, said before anything starts (#51),
/// and a command offers only the options it can use.
@Suite(
  "regctl's options: 64 for a wrong one, only the ones a command uses", .serialized,
  .timeLimit(.minutes(10)))
struct OptionExitBinaryTests {
  static let emptyCapture = #"{"log":{"version":"1.2","entries":[]}}"#

  @Test(
    "a bad --fail-on or --allow: exit 64 naming it, in judge and qa",
    arguments: [["--fail-on", "bogus"], ["--allow", "contactKeyChangd"], ["--allow", "a,b"]])
  func gates(_ option: [String]) async throws {
    let har = try temporaryFile("empty.har", Self.emptyCapture)
    let judge = try await regctl(["judge", har] + option)
    #expect(judge.status == 64, "\(option): \(judge.stderr)")
    #expect(judge.stderr.contains(option[0]), "\(judge.stderr)")
    let qa = try await runProcess(
      try regctlURL(),
      ["qa", "first-registration", "--yes", "--app-id", "app", "--port", "0"] + option,
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(qa.status == 64, "\(option): \(qa.stderr)")
    #expect(qa.stderr.contains(option[0]), "\(qa.stderr)")
    #expect(!qa.stdout.contains("point the app at"), "qa started before refusing: \(qa.stdout)")
  }

  @Test("qa --print of no built-in, shell --server that is not a URL, qa --listen nowhere: 64")
  func otherValues() async throws {
    let printed = try await regctl(["qa", "--print", "no-such-plan"])
    #expect(printed.status == 64, "\(printed.stderr)")
    #expect(printed.stderr.contains("no built-in plan \"no-such-plan\""), "\(printed.stderr)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "server-\(UUID().uuidString)"
    ).path
    for server in ["bogus", "ftp://mc.example.com", "https://"] {
      let shell = try await regctl(["shell", "--state", folder, "--server", server], input: "")
      #expect(shell.status == 64, "\(server): \(shell.stderr)")
      #expect(shell.stderr.contains("--server must be an http:// or https:// URL"), "\(server)")
    }
    // As serve does with the same option.
    for command in ["serve", "qa"] {
      let listen = try await runProcess(
        try regctlURL(),
        [command] + (command == "qa" ? ["first-registration", "--yes"] : [])
          + ["--app-id", "app", "--port", "0", "--listen", "300.1.1.1"],
        environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
      #expect(listen.status == 64, "\(command): \(listen.stderr)")
      #expect(listen.stderr.contains("300.1.1.1"), "\(command): \(listen.stderr)")
    }
  }

  @Test("--read-back-after: offered by serve and qa, not by judge or tenant check")
  func readBackAfter() async throws {
    for command in [["serve"], ["qa"]] {
      let help = try await regctl(command + ["--help"])
      #expect(help.stdout.contains("--read-back-after <seconds>"), "\(command)")
      #expect(help.stdout.contains("--tenant <file>"), "\(command)")
    }
    for command in [["judge"], ["tenant", "check"]] {
      let help = try await regctl(command + ["--help"])
      #expect(help.status == 0)
      #expect(!help.stdout.contains("--read-back-after"), "\(command): \(help.stdout)")
      #expect(help.stdout.contains("--tenant <file>"), "\(command)")
    }
    let har = try temporaryFile("empty.har", Self.emptyCapture)
    let judge = try await regctl(["judge", har, "--read-back-after", "60"])
    #expect(judge.status == 64, "\(judge.stderr)")
    #expect(judge.stderr.contains("--read-back-after"), "\(judge.stderr)")
    let bad = try await regctl(["serve", "--app-id", "app", "--read-back-after", "0"])
    #expect(bad.status == 64 && bad.stderr.contains("--read-back-after must be from 1"))
  }

  @Test(
    "--upstream: plain http only to this machine, as written; the app's token never leaves in clear (#52)"
  )
  func upstreamInClear() async throws {
    for upstream in [
      "http://127.0.0.1%20.evil.example/", "http://evil.example/", "http://127.1:9/",
      "http://0x7f000001/", "http://127.0.0.1.evil.example/",
    ] {
      let serve = try await runProcess(
        try regctlURL(), ["serve", "--app-id", "app", "--port", "0", "--upstream", upstream],
        environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
      #expect(serve.status == 64, "\(upstream): \(serve.status) \(serve.stderr)")
      #expect(
        serve.stderr.contains("plain http only to this machine")
          || serve.stderr.contains("never percent-encoded"), "\(upstream): \(serve.stderr)")
      #expect(!serve.stdout.contains("listening on"), "\(upstream)")
    }
  }
}
