import Foundation
import QA
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `regctl qa` as a tester and a lead meet it: a line as each registration arrives, Ctrl-C
/// leaving a report with the steps not reached, a one-line verdict with --report, and gates
/// that say what is wrong with a bad value.
@Suite("regctl qa's output and its report after Ctrl-C", .serialized, .timeLimit(.minutes(10)))
struct QARunOutputTests {
  @Test("each registration is a line as it arrives; Ctrl-C writes the report so far, exit 130")
  func interrupted() async throws {
    let markdown = try temporaryFile("report.md", "")
    let junit = markdown + ".xml"
    let process = try InteractiveProcess(
      try regctlURL(),
      ["qa", "retry-ladder", "--yes", "--port", "0", "--report", markdown, "--junit", junit])
    let line = try await process.readLine { $0.contains("point the app at") } ?? ""
    let port = Int(line.split(separator: ":").last ?? "") ?? 0
    let app = try await process.readLine { $0.hasPrefix("app ") } ?? ""
    #expect(app.contains("0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"))
    let request = ServeBinaryTests.androidRegistration(
      device: "QA-ANDROID", app: "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b",
      token: "demo-access-token-012345")
    let answer = try await rawExchange(port: port, Array(request.utf8))
    #expect(answer.hasPrefix("HTTP/1.1 503"))
    let arrived = try await process.readLine { $0.contains("QA-ANDROID") } ?? ""
    #expect(arrived.contains("503  first registration"), "\(arrived)")
    #expect(try await process.readLine { $0.contains("its SDK may register next at") } != nil)
    process.signal(SIGINT)
    let summary = try await process.readLine { $0.hasPrefix("QA retry-ladder:") } ?? ""
    #expect(summary.contains("stopped") && summary.contains("report in \(markdown)"), "\(summary)")
    #expect(summary.contains("step 3 interrupted: expect: the retries keep"), "\(summary)")
    #expect(try await process.finish() == 130)
    let report = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(report.contains("Result: **stopped**"))
    // The step waiting at Ctrl-C is interrupted, with what it had seen; the rest not run.
    #expect(report.contains("| 3 | expect: the retries keep to the SDK's minimum | interrupted |"))
    #expect(
      report.contains(
        "## Step 3: interrupted\n\nexpect: the retries keep to the SDK's minimum\n\n    the run was stopped before this step was decided\n"
      ), "\(report)")
    #expect(report.contains("  first  503  first registration\n"), "\(report)")
    #expect(report.contains("| 5 | expect: the subscriber token is sent back | not run |"))
    #expect(report.contains("Stopped before the end (Ctrl-C): step 3 was interrupted"))
    #expect(report.contains("RegScope: ") && report.contains("Receiver: http://127.0.0.1:\(port)"))
    #expect(report.contains("SDK: android 10.0.0"))
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<skipped"))
    // A stopped run is no clean run: the interrupted step is an error.
    let counts = try JUnitCounter.count(junit)
    #expect(counts.errors == 1 && counts.failures == 0, "\(xml)")
    #expect(xml.contains(#"errors="1""#))
    #expect(xml.firstMatch(of: #/time="\d+\.\d{3}"/#) != nil)
    #expect(xml.firstMatch(of: #/time="[0-9.]+e-?\d+"/#) == nil)
  }

  @Test("Ctrl-C while waiting for a registration that never came: the report says none arrived")
  func interruptedWaiting() async throws {
    let markdown = try temporaryFile("waiting.md", "")
    let process = try InteractiveProcess(
      try regctlURL(), ["qa", "first-registration", "--yes", "--port", "0", "--report", markdown])
    #expect(try await process.readLine { $0.hasPrefix("step 2/") } != nil)
    process.signal(SIGINT)
    #expect(try await process.finish() == 130)
    let report = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(
      report.contains(
        "no registration from the app reached the receiver: is the app pointed at it?"),
      "\(report)")
  }

  @Test(
    "Ctrl-C after the receiver refused the app's registration: the report says why, not 'none came'"
  )
  func interruptedRefused() async throws {
    let markdown = try temporaryFile("refused.md", "")
    let process = try InteractiveProcess(
      try regctlURL(), ["qa", "first-registration", "--yes", "--port", "0", "--report", markdown])
    let line = try await process.readLine { $0.contains("point the app at") } ?? ""
    let port = Int(line.split(separator: ":").last ?? "") ?? 0
    #expect(try await process.readLine { $0.hasPrefix("step 2/") } != nil)
    let request = ServeBinaryTests.androidRegistration(
      device: "QA-WRONG", app: "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b",
      token: "wrong-token-000000000000")
    let answer = try await rawExchange(port: port, Array(request.utf8))
    #expect(answer.hasPrefix("HTTP/1.1 401"))
    process.signal(SIGINT)
    #expect(try await process.finish() == 130)
    let report = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(
      report.contains("the receiver took no registration: it refused QA-WRONG (401)"), "\(report)")
  }

  @Test("a bad --fail-on or --allow exits 64 (a wrong option) with what would do")
  func gates() async throws {
    for arguments in [["--fail-on", "sometimes"], ["--allow", "contactKeyChangd"]] {
      let qa = try await runProcess(
        try regctlURL(), ["qa", "first-registration", "--yes"] + arguments)
      #expect(qa.status == 64, "\(arguments): \(qa.stderr)")
      let har = try temporaryFile("empty.har", #"{"log":{"version":"1.2","entries":[]}}"#)
      let judge = try await runProcess(try regctlURL(), ["judge", har] + arguments)
      #expect(judge.status == 64, "\(arguments): \(judge.stderr)")
      #expect(judge.stderr.contains(arguments[1]))
    }
  }

  @Test("regctl run --json ends each scenario with a summary record")
  func runSummary() async throws {
    let run = try await runProcess(try regctlURL(), ["run", "--json", "throttle-coalesces"])
    #expect(run.status == 0)
    let last = try #require(run.stdout.split(separator: "\n").last)
    let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
    #expect(object?["type"] as? String == "summary")
    #expect(object?["passed"] as? Bool == true && object?["checks"] as? Int == 8)
  }
}
