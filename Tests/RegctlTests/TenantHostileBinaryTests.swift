import Foundation
import Synchronization
import TestSupport
import Testing

/// `regctl tenant check` (and a receiver's start) against a tenant that answers oddly or
/// hostilely (#52, items 8 to 11), through the real binary and the stand-in tenant.
@Suite("regctl and a tenant that answers oddly, through the stand-in", .timeLimit(.minutes(10)))
struct TenantHostileBinaryTests {
  func check(_ tenant: StandInTenant, file: String? = nil, _ extra: [String] = []) async throws
    -> ProcessOutput
  {
    let path = try file ?? tenant.file()
    return try await runProcess(try regctlURL(), ["tenant", "check", "--tenant", path] + extra)
  }

  /// A `--tenant` file for `tenant` with `auth_base_uri` (and what else `extra` adds) as given.
  func file(_ tenant: StandInTenant, auth: String, extra: String = "") throws -> String {
    let path = try tenant.file()
    let text = """
      {"client_id": "\(StandInTenant.clientID)", "client_secret": "\(StandInTenant.secret)",
       "auth_base_uri": "\(auth)"\(extra)}
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  // MARK: 8. A token that cannot go in a header

  @Test("a token with CR LF: refused in its own words, masked, never sent; not 'cannot reach'")
  func tokenWithControlCharacters() async throws {
    let tenant = try StandInTenant(.tokenText(#"token-1\r\nX-Injected: yes"#))
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(
      output.stderr.contains(
        "answered an access_token with a control character (\\r at character 8; token toke…(23 chars)), which cannot go in a request header"
      ), "\(output.stderr)")
    #expect(!output.stderr.contains("cannot reach"), "\(output.stderr)")
    for text in [output.stdout, output.stderr] {
      #expect(!text.contains("X-Injected") && !text.contains("token-1"), "\(text)")
    }
    #expect(tenant.restCalls.isEmpty)
  }

  // MARK: 9. Only loopback, read strictly, may be plain http

  @Test(
    "plain http to a host that only looks like loopback is refused before the secret is sent",
    arguments: [
      "127.0.0.1%20.evil.example", "127.0.0.1.evil.example", "127.1", "0x7f000001",
      "0177.0.0.1", "127.0.0.01", "localhost.evil.example", "localhost%2E",
    ])
  func lookalikeLoopback(host: String) async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let output = try await check(
      tenant, file: try file(tenant, auth: "http://\(host):\(tenant.port)/"))
    #expect(output.status == 2)
    #expect(
      output.stderr.contains("\"auth_base_uri\" must be https:// (http://\(host):\(tenant.port)/)"),
      "\(output.stderr)")
    #expect(tenant.tokenBodies.isEmpty)
  }

  @Test("a token's rest_instance_url of plain http off loopback: refused and said, not 'missing'")
  func refusedInstanceURL() async throws {
    let tenant = try StandInTenant(.instanceURL("http://127.0.0.1%20.evil.example:9/"))
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(
      output.stderr.contains(
        "answered a rest_instance_url that was refused: it must be https:// (http://127.0.0.1%20.evil.example:9/)"
      ), "\(output.stderr)")
    #expect(output.stderr.contains("add the package's REST Base URI"), "\(output.stderr)")
    #expect(!output.stderr.contains("no rest_instance_url"), "\(output.stderr)")
    #expect(tenant.restCalls.isEmpty)
    // With a rest_base_uri in the file, that one is used instead.
    let withBase = try await check(
      tenant,
      file: try file(
        tenant, auth: "http://127.0.0.1:\(tenant.port)/",
        extra: #", "rest_base_uri": "http://127.0.0.1:\#(tenant.port)/""#))
    #expect(withBase.status == 0, "\(withBase.stderr)")
    #expect(!tenant.restCalls.isEmpty)
  }

  // MARK: 10. No line forged by the tenant's text

  static let forging = ["FirstName\nok: FORGED", "Plan\r\u{1B}[2JCleared", "Device ID"]

  @Test("a newline in an attribute name cannot forge a line of tenant check")
  func forgedCheckLine() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    tenant.define(Self.forging)
    let output = try await check(tenant, ["--app-id", "app\nok: FORGED TOO"])
    #expect(output.status == 0, "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("ok:") }.count == 1, "\(output.stdout)")
    #expect(!output.stdout.contains("\r") && !output.stdout.contains("\u{1B}"))
    #expect(
      output.stdout.contains(
        #"MobilePush Demographics: 3 attributes: FirstName\nok: FORGED, Plan\r\e[2JCleared, Device ID"#
      ), "\(output.stdout)")
    #expect(output.stdout.contains(#"app app\nok: FORGED TOO: not checked"#), "\(output.stdout)")
  }

  @Test("a newline in an attribute name cannot forge a line of serve's start")
  func forgedServeLine() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    tenant.define(Self.forging)
    let process = try InteractiveProcess(
      try regctlURL(),
      ["serve", "--app-id", "app", "--port", "0", "--tenant", try tenant.file()],
      environment: ["REGSCOPE_ACCESS_TOKEN": "serve-test-token-0123456789"])
    let seen = SeenLines()
    // Up to the end of the settings line (`..., demographics ..., data ...`), wherever a
    // forged newline would have cut it.
    let last = try await process.readLine { line in
      seen.lines.withLock { $0.append(line) }
      return line.contains(", data ")
    }
    process.terminate()
    _ = try await process.finish()
    let lines = seen.lines.withLock { $0 }
    #expect(last != nil, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("ok: FORGED") }, "\(lines)")
    #expect(!lines.contains { $0.contains("\r") || $0.contains("\u{1B}") }, "\(lines)")
    #expect(
      lines.contains { $0.contains(#"demographics Device ID,FirstName\nok: FORGED,Plan\r\e[2J"#) },
      "\(lines)")
  }

  @Test("a 100 KB attribute name is clipped in every line, its length said")
  func longName() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let long = String(repeating: "A", count: 100_000)
    tenant.define([long, "FirstName"])
    let output = try await check(tenant)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stdout.contains(String(repeating: "A", count: 80) + "…(100000 chars), FirstName"),
      "\(output.stdout.prefix(400))")
    #expect(output.stdout.utf8.count < 2_000)
  }

  // MARK: 11. A 429's wait, and numbers in the answer

  @Test(
    "a Retry-After that is not decimal seconds is no wait: said at once, never waited as a number",
    arguments: ["0x10", "1e20", "Fri, 31 Dec 1999 23:59:59 GMT", "+5", "5s"])
  func unreadableRetryAfter(value: String) async throws {
    let tenant = try StandInTenant(.throttleDefinitions(retryAfter: value))
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(
      output.stderr.contains("is throttled (429, errorcode 50100)")
        && output.stderr.contains("try again later"), "\(output.stderr)")
    #expect(!output.stderr.contains("e+20"), "\(output.stderr)")
    #expect(tenant.restCalls.count == 1)
  }

  @Test(
    "a Retry-After over the 30 s waited is said as asked: precisely, and past a day as such",
    arguments: [
      ("30.0000001", "try again in 30.0000001 s (longer than the 30 s RegScope waits"),
      ("99999999999999999999", "try again in more than a day (longer than the 30 s"),
      ("3600", "try again in 1 h (longer than the 30 s"),
    ])
  func longRetryAfter(value: String, says: String) async throws {
    let tenant = try StandInTenant(.throttleDefinitions(retryAfter: value))
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(output.stderr.contains(says), "\(output.stderr)")
    #expect(!output.stderr.contains("e+"), "\(output.stderr)")
    #expect(tenant.restCalls.count == 1)
  }

  @Test("a Retry-After with a decimal fraction is waited as written")
  func fractionRetryAfter() async throws {
    let tenant = try StandInTenant(.throttleDefinitions(retryAfter: "0.5"))
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    // Waited twice (the most a request waits), then said with its wait.
    #expect(tenant.restCalls.count == 3)
    #expect(output.stderr.contains("try again in 0.5 s"), "\(output.stderr)")
  }

  @Test("a count that is not a whole number is said so, with its value; not 'not JSON'")
  func fractionalCount() async throws {
    for (count, says) in [
      ("1.5", "count is not a whole number (1.5)"), ("1e30", "count is out of range (1e+30)"),
    ] {
      let tenant = try StandInTenant(.definitionsCount(count))
      defer { tenant.stop() }
      let output = try await check(tenant)
      #expect(output.status == 2)
      #expect(
        output.stderr.contains("not what the documentation describes (\(says))"),
        "\(output.stderr)")
    }
  }
}

/// Lines a child printed, gathered from the reader's closure.
final class SeenLines: Sendable {
  let lines = Mutex<[String]>([])
}
