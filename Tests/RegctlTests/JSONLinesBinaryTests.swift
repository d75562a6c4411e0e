import Foundation
import TestSupport
import Testing

/// Every `--json` output of regctl is JSON lines (#51): one JSON value a line on standard
/// output, whatever the data holds, and everything else (progress, summaries) on standard
/// error. A script pipes it to `jq` as it is.
@Suite("every --json output of regctl is JSON lines", .serialized, .timeLimit(.minutes(10)))
struct JSONLinesBinaryTests {
  /// Each line of standard output parsed; a line that is not JSON fails the test.
  static func jsonLines(_ output: ProcessOutput, _ what: String) -> [Any] {
    output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .compactMap { line in
        let value = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [])
        #expect(value != nil, "\(what): not JSON: \(line.prefix(200))")
        return value
      }
  }

  @Test("qa --json: standard output is the report alone, the progress on standard error")
  func qaReport() async throws {
    let plan = try temporaryFile(
      "quick.yaml", "name: quick\nsteps:\n  - expect: registration\n    timeout: 1s\n")
    let run = try await runProcess(
      try regctlURL(), ["qa", plan, "--yes", "--json", "--app-id", "app", "--port", "0"],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    #expect(run.status == 1, "\(run.stderr)")
    let lines = Self.jsonLines(run, "qa --json")
    #expect(lines.count == 1, "\(run.stdout)")
    let report = try #require(lines.first as? [String: Any])
    #expect(report["plan"] as? String == "quick" && report["passed"] as? Bool == false)
    #expect(run.stderr.contains("step 1/1: "), "\(run.stderr)")
    #expect(run.stderr.contains("point the app at"), "\(run.stderr)")
  }

  @Test("qa --list --json: a plan a line; qa --print NAME --json: its YAML in an object")
  func qaPlans() async throws {
    let listed = try await regctl(["qa", "--list", "--json"])
    #expect(listed.status == 0)
    let plans = Self.jsonLines(listed, "qa --list --json").compactMap { $0 as? [String: Any] }
    #expect(plans.compactMap { $0["name"] as? String }.contains("retry-ladder"))
    #expect(plans.count == listed.stdout.split(separator: "\n").count)
    let printed = try await regctl(["qa", "--print", "retry-after", "--json"])
    let lines = Self.jsonLines(printed, "qa --print --json")
    #expect(lines.count == 1)
    let yaml = (lines.first as? [String: Any])?["yaml"] as? String ?? ""
    #expect(yaml.contains("fault: 429 retry-after 120"), "\(yaml)")
  }

  /// A capture of one registration whose attribute holds what a terminal must never get raw:
  /// a C1 CSI, a zero-width space, a right-to-left override, a pile of combining marks.
  static func hostileCapture() -> String {
    let value = "a\u{9B}31mb\u{200B}c\u{202E}d" + String(repeating: "\u{301}", count: 8)
    let body = sdkBody(device: "JSON-1", attributes: ["Nickname": value])
    return #"""
      {"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[
      {"startedDateTime":"2026-11-22T10:00:00.000Z","time":1,
       "request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1",
         "headers":[{"name":"User-Agent","value":"\#(androidAgent)"}],"queryString":[],"cookies":[],
         "headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":\#(jsonLiteral(body))}},
       "response":{"status":201,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],
         "content":{"size":0,"mimeType":"application/json","text":"{}"},"redirectURL":"","headersSize":-1,"bodySize":-1},
       "cache":{},"timings":{"send":0,"wait":1,"receive":0}}]}}
      """#
  }

  @Test("judge --json, --fields, --explain --json: JSON lines, even of a body a terminal fears")
  func judge() async throws {
    let path = try temporaryFile("hostile.har", Self.hostileCapture())
    for extra in [[], ["--fields"], ["--explain"]] {
      let run = try await regctl(["judge", "--json", "--fail-on", "never"] + extra + [path])
      #expect(run.status == 0, "\(extra): \(run.stderr)")
      let lines = Self.jsonLines(run, "judge --json \(extra)")
      #expect(lines.count == 1, "\(extra): \(run.stdout)")
      // Safe for a terminal the JSON way (\uXXXX): no raw C1 control nor override.
      #expect(!run.stdout.unicodeScalars.contains("\u{9B}"), "\(extra)")
      #expect(!run.stdout.unicodeScalars.contains("\u{202E}"), "\(extra)")
    }
    let timeline = try await regctl(["judge", "--json", "--fail-on", "never", path])
    let object = try #require(Self.jsonLines(timeline, "judge").first as? [String: Any])
    let body = (object["registrations"] as? [[String: Any]])?.first?["body"] as? String ?? ""
    // The value reads back as it was sent.
    #expect(body.contains("a\u{9B}31mb\u{200B}c\u{202E}"), "\(body)")
    let explained = try await regctl(["judge", "--json", "--explain", "--fail-on", "never", path])
    let story = try #require(Self.jsonLines(explained, "explain").first as? [String: Any])
    #expect(story["deviceID"] as? String == "JSON-1")
    #expect(!((story["explain"] as? [String]) ?? []).isEmpty, "\(story)")
  }

  @Test("state --json and state --import --json: one line each, not indented JSON")
  func state() async throws {
    let imported = try await regctl([
      "state", "--import", fixture("android-sdk-state.json"), "--json",
    ])
    #expect(imported.status == 0)
    let findings = Self.jsonLines(imported, "state --import --json")
    #expect(findings.count == 1)
    #expect((findings.first as? [String: Any])?["deviceID"] as? String == "ANDROID-DEVICE-1")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "state-\(UUID().uuidString)"
    ).path
    let shell = try await regctl(["shell", "--state", folder], input: "tag add x\nquit\n")
    #expect(shell.status == 0, "\(shell.stderr)")
    for format in ["regscope", "android", "unified", "ios"] {
      let dumped = try await regctl(["state", "--state", folder, "--format", format, "--json"])
      #expect(dumped.status == 0, "\(format): \(dumped.stderr)")
      #expect(Self.jsonLines(dumped, "state --json --format \(format)").count == 1)
    }
  }

  @Test("shell --json: events, messages, help and state, each a JSON line")
  func shell() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "shell-\(UUID().uuidString)"
    ).path
    let run = try await regctl(
      ["shell", "--json", "--state", folder], input: "help\nstate\nbogus\ntag add x\nquit\n")
    #expect(run.status == 0, "\(run.stderr)")
    let records = Self.jsonLines(run, "shell --json").compactMap { $0 as? [String: Any] }
    let types = Set(records.compactMap { $0["type"] as? String })
    #expect(types.isSuperset(of: ["launched", "help", "state", "message", "edited"]), "\(types)")
    let help = records.first { $0["type"] as? String == "help" }
    #expect((help?["commands"] as? [String])?.contains("tag add TAG") == true)
  }

  @Test("run --json of a file that cannot be read among others: the rest run, and the total")
  func runWithUnreadable() async throws {
    let typo = try temporaryFile("typo.yaml", "name: t\nsteps:\n  - { at: 0s, do: \"lanch\" }\n")
    let run = try await regctl([
      "run", "--json", "initial-registration", typo, "throttle-coalesces",
    ])
    #expect(run.status == 2)
    let records = Self.jsonLines(run, "run --json").compactMap { $0 as? [String: Any] }
    let ends = records.filter { ["summary", "error", "total"].contains($0["type"] as? String) }
    #expect(
      ends.map { $0["type"] as? String ?? "" } == ["summary", "error", "summary", "total"],
      "\(ends)")
    #expect(ends[1]["scenario"] as? String == typo)
    #expect(ends[1]["where"] as? String == "\(typo):3:20")
    #expect(ends[2]["scenario"] as? String == "throttle-coalesces")
    let total = ends[3]
    #expect(total["scenarios"] as? Int == 3 && total["passed"] as? Int == 2)
    #expect(total["failed"] as? Int == 0 && total["unreadable"] as? Int == 1)
    #expect(run.stderr.contains("\(typo):3:20: step 1: unknown \"lanch\""), "\(run.stderr)")
    let text = try await regctl(["run", "-q", typo, "initial-registration"])
    #expect(text.status == 2)
    #expect(text.stdout.contains("PASS initial-registration"), "\(text.stdout)")
    #expect(text.stdout.contains("1 passed, 0 failed, 1 could not be read"), "\(text.stdout)")
  }

  @Test("fleet --json: one line")
  func fleet() async throws {
    let run = try await regctl(["fleet", "--devices", "50", "--days", "1", "--json"])
    #expect(run.status == 0)
    #expect(Self.jsonLines(run, "fleet --json").count == 1)
  }
}
