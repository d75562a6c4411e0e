import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Counts a JUnit document's test cases, failures and errors, with a real XML parser.
final class JUnitCounter: NSObject, XMLParserDelegate {
  var cases = 0
  var failures = 0
  var errors = 0

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch name {
    case "testcase": cases += 1
    case "failure": failures += 1
    case "error": errors += 1
    default: break
    }
  }

  static func count(_ path: String) throws -> JUnitCounter {
    let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
    let counter = JUnitCounter()
    parser.delegate = counter
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    return counter
  }
}

@Suite("regctl qa, as a tester runs it", .serialized, .timeLimit(.minutes(10)))
struct QABinaryTests {
  func start(_ arguments: [String]) async throws -> (InteractiveProcess, Int) {
    let process = try InteractiveProcess(
      try regctlURL(), ["qa"] + arguments + ["--app-id", "app", "--port", "0"],
      environment: ["REGSCOPE_ACCESS_TOKEN": ServeProcess.token])
    let line = try await process.readLine { $0.contains("point the app at") } ?? ""
    let port = Int(line.split(separator: ":").last ?? "") ?? 0
    return (process, port)
  }

  @Test("first-registration on an app that registers: every step passes, exit 0, three reports")
  func passes() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qa-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let junit = folder.appendingPathComponent("qa.xml").path
    let markdown = folder.appendingPathComponent("qa.md").path
    let (process, port) = try await start([
      "first-registration", "--yes", "--junit", junit, "--report", markdown,
    ])
    #expect(port > 0)
    let answer = try await rawExchange(
      port: port,
      Array(
        ServeBinaryTests.androidRegistration(device: "QA-1", app: "app", token: ServeProcess.token)
          .utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"))
    #expect(try await process.finish() == 0)
    let counts = try JUnitCounter.count(junit)
    #expect(counts.cases == 3 && counts.failures == 0 && counts.errors == 0)
    let report = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(report.contains("# QA run: first-registration"))
    #expect(report.contains("Result: **passed**") && report.contains("- Device: `QA-1`\n"))
    #expect(!report.contains(ServeProcess.token))
  }

  /// An iOS app's registration, as the shipped SDK sends it.
  static func iosRegistration(tags: [String]) -> String {
    let body = sdkBody(device: "QA-IPHONE-1", platform: "iOS", app: "app", tags: tags)
    return "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
      + "User-Agent: \(iosAgent)\r\nAuthorization: Bearer \(ServeProcess.token)\r\n"
      + "Content-Type: application/json\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)"
  }

  @Test(
    "throttle: qa-a and qa-b sent together but early while the app stayed open fail the step, saying why; the evidence shows what each carried"
  )
  func throttleKnowsTheAppStayedOpen() async throws {
    let markdown = try temporaryFile("throttle.md", "")
    let (process, port) = try await start(["throttle", "--yes", "--report", markdown])
    #expect(try await process.readLine { $0.hasPrefix("step 2/") } != nil)
    for tags in [
      ["ALL", "IOS", "iPhone", "qa-start"], ["ALL", "IOS", "iPhone", "qa-a", "qa-b", "qa-start"],
    ] {
      let answer = try await rawExchange(port: port, Array(Self.iosRegistration(tags: tags).utf8))
      #expect(answer.hasPrefix("HTTP/1.1 201"))
    }
    #expect(try await process.finish() == 1)
    let report = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(report.contains("| 2 | expect: a registration carries tag qa-a, tag qa-b | fail |"))
    // The receiver alone notes it as a relaunch; the plan had the tester keep the app open.
    #expect(
      report.contains("actual: the one that carried them was sent early: sent ")
        && report.contains("after the one before, while step 1 had the tester keep the app open"),
      "\(report)")
    #expect(report.contains("+ tags qa-a; + tags qa-b  throttleViolated (violation)"), "\(report)")
    #expect(report.contains("fix: let the SDK decide when to register"))
    #expect(report.contains("- Device: `QA-IPHONE-1`\n"))
  }

  @Test(
    "token-returned: an app silent after its 201 passes (nothing could carry the token); one that sends again without it fails"
  )
  func tokenReturned() async throws {
    for resends in [false, true] {
      // A resend without the token fails the step at once, so its plan waits long: on a
      // loaded machine the test may read "step 3/" well after a short step would have ended.
      let plan = try temporaryFile(
        resends ? "token-resends.yaml" : "token-silent.yaml",
        """
        name: token
        steps:
          - expect: registration
            timeout: 10m
          - ask: Add the tag qa-token in the app.
            timeout: 10m
          - expect: token-returned
            timeout: \(resends ? "10m" : "1s")
        """)
      let markdown = plan + ".md"
      let (process, port) = try await start([plan, "--yes", "--report", markdown])
      let request = ServeBinaryTests.androidRegistration(
        device: "QA-1", app: "app", token: ServeProcess.token)
      #expect(try await rawExchange(port: port, Array(request.utf8)).hasPrefix("HTTP/1.1 201"))
      if resends {
        #expect(try await process.readLine { $0.hasPrefix("step 3/") } != nil)
        _ = try await rawExchange(port: port, Array(request.utf8))
      }
      #expect(try await process.finish() == (resends ? 1 : 0))
      let report = try String(contentsOfFile: markdown, encoding: .utf8)
      #expect(
        report.contains(
          resends
            ? "| 3 | expect: the subscriber token is sent back | fail |"
            : "| 3 | expect: the subscriber token is sent back | pass |"), "\(report)")
      #expect(
        report.contains(
          resends ? "(no X-Subscriber-Token)" : "owed on no request: the app sent nothing after"))
    }
  }

  @Test("a step that times out fails the run: exit 1, a JUnit error, the JSON verdict")
  func timesOut() async throws {
    let plan = try temporaryFile(
      "plan.yaml", "name: quick\nsteps:\n  - expect: registration\n    timeout: 1s\n")
    let junit = plan + ".xml"
    let (process, _) = try await start([plan, "--yes", "--json", "--junit", junit])
    #expect(try await process.finish() == 1)
    let counts = try JUnitCounter.count(junit)
    #expect(counts.cases == 1 && counts.errors == 1)
  }

  @Test("without --yes each ask waits for its own Enter, in order")
  func asks() async throws {
    let plan = try temporaryFile(
      "asks.yaml",
      "name: asks\nsteps:\n  - ask: first thing\n    timeout: 1m\n  - ask: second thing\n    timeout: 1m\n  - fault: up\n"
    )
    let (process, _) = try await start([plan])
    #expect(try await process.readLine { $0.contains("ask: first thing") } != nil)
    process.send("\n")
    #expect(try await process.readLine { $0.contains("ask: second thing") } != nil)
    process.send("\n")
    #expect(try await process.readLine { $0.contains("step 3/3") } != nil)
    #expect(try await process.finish() == 0)
  }

  @Test("a plan that cannot be read: the error with its place, exit 2")
  func badPlan() async throws {
    let plan = try temporaryFile(
      "bad.yaml", "name: p\nsteps:\n  - expect: nothing\n    timeout: 1m\n")
    let output = try await regctl([
      "qa", plan, "--yes", "--app-id", "app", "--access-token", "t0123456789abc",
    ])
    #expect(output.status == 2)
    #expect(output.stderr.contains("bad.yaml:3:13") && output.stderr.contains("cannot evaluate"))
    let listed = try await regctl(["qa", "--list"])
    #expect(listed.status == 0 && listed.stdout.contains("retry-ladder"))
    let printed = try await regctl(["qa", "--print", "retry-after"])
    #expect(printed.stdout.contains("fault: 429 retry-after 120"))
  }
}
