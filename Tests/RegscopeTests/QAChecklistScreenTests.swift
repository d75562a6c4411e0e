import Foundation
import TestSupport
import Testing

/// `regscope --receive --qa PLAN`: the plan as a checklist beside the timeline, in a real
/// terminal: the ask waits for Enter, each expectation is ticked as the app's registrations
/// decide it, and a step's evidence opens with `[`.
@Suite("regscope running a QA plan (tmux)", .serialized, .timeLimit(.minutes(10)))
struct QAChecklistScreenTests {
  @Test("ask, Enter, the app registers, every step ticked, the report written")
  func checklist() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let port = try #require(freeLoopbackPort())
    let plan = FileManager.default.temporaryDirectory.appendingPathComponent(
      "plan-\(UUID().uuidString).yaml"
    ).path
    try """
    name: screen-check
    steps:
      - ask: "Open the app and add the tag qa-a."
        timeout: 5m
      - expect: body-has
        tags: [qa-a]
        timeout: 2m
      - expect: no-violation
        timeout: 1s
    """.write(toFile: plan, atomically: true, encoding: .utf8)
    let tmux = Tmux()
    _ = try await tmux.startRegscope(arguments: "--receive --port \(port) --qa \(plan)")
    defer { tmux.killServer() }
    #expect(
      await tmux.waitFor("the checklist with the ask") { screen in
        screen.contains("QA · screen-check (0 of 3 passed)")
          && screen.contains("press Enter when done")
      })
    try await tmux.keys("Enter")
    #expect(
      await tmux.waitFor("the expectation running, with its countdown") { screen in
        screen.contains("1 of 3 passed") && screen.contains("time left")
      })
    let body =
      #"{"deviceID":"QA-PHONE","etAppId":"0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b","platform":"Android","tags":["ALL","qa-a"]}"#
    let head =
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
      + "authorization: Bearer demo-access-token-012345\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"
    let answer = try await rawExchange(port: port, Array((head + body).utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"))
    #expect(
      await tmux.waitFor("every step ticked and the report written") { screen in
        screen.contains("QA · screen-check (passed, 3 of 3)") && screen.contains("report in")
      })
    try await tmux.keys("[")
    #expect(await tmux.waitFor("the first step's evidence") { $0.contains("the tester went on") })
    try await tmux.keys("Q")
    #expect(await tmux.waitFor("the checklist hidden") { $0.contains("Last body") })
    try await tmux.keys("q")
    #expect(await tmux.waitFor("a clean exit") { $0.contains("REGSCOPE-EXIT=0") })
  }

  @Test(
    "Ctrl-C while a step waits: the report says it was interrupted, with its evidence; exit 130")
  func interrupted() async throws {
    try #require(Tmux.available, "tmux is not installed (.ci/run installs it)")
    let port = try #require(freeLoopbackPort())
    let tmux = Tmux()
    let state = try await tmux.startRegscope(arguments: "--receive --port \(port) --qa throttle")
    defer { tmux.killServer() }
    #expect(await tmux.waitFor("the ask") { $0.contains("press Enter when done") })
    try await tmux.keys("Enter")
    #expect(await tmux.waitFor("step 2 waiting") { $0.contains("time left") })
    let body =
      #"{"deviceID":"QA-PHONE","etAppId":"0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b","platform":"Android","tags":["ALL"]}"#
    let head =
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
      + "authorization: Bearer demo-access-token-012345\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"
    let answer = try await rawExchange(port: port, Array((head + body).utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"))
    #expect(await tmux.waitFor("the registration in the timeline") { $0.contains("QA-PHONE") })
    try await tmux.keys("C-c")
    #expect(
      await tmux.waitFor("exit 130, as regctl qa") { screen in
        screen.contains("REGSCOPE-EXIT=130") && screen.contains("QA report: ")
      })
    let reports = try FileManager.default.contentsOfDirectory(atPath: state).filter {
      $0.hasPrefix("qa-throttle-") && $0.hasSuffix(".md")
    }
    let report = try String(
      contentsOfFile: state + "/" + (try #require(reports.first)), encoding: .utf8)
    #expect(report.contains("Result: **stopped**"))
    #expect(
      report.contains("| 2 | expect: a registration carries tag qa-a, tag qa-b | interrupted |"))
    #expect(report.contains("201  first registration"), "\(report)")
    #expect(report.contains("| 3 | expect: no violation | not run |"))
  }
}
