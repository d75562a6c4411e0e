import Foundation
import TestSupport
import Testing

/// `regctl tenant check` and `regctl serve --tenant` against the stand-in tenant, through the
/// real binary.
@Suite("regctl and a tenant, through the stand-in", .timeLimit(.minutes(10)))
struct TenantBinaryTests {
  func check(_ tenant: StandInTenant, file: String? = nil, _ extra: [String] = []) async throws
    -> ProcessOutput
  {
    let path = try file ?? tenant.file()
    return try await runProcess(try regctlURL(), ["tenant", "check", "--tenant", path] + extra)
  }

  func expectNoSecret(_ output: ProcessOutput) {
    #expect(
      !output.stdout.contains(StandInTenant.secret) && !output.stderr.contains(StandInTenant.secret)
    )
    #expect(!output.stdout.contains("token-1") && !output.stderr.contains("token-1"))
  }

  @Test("a good tenant: the documented token request, one token for every page, the set's names")
  func goodTenant() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stdout.contains(
        "MobilePush Demographics: 5 attributes: Device ID, System Token, FirstName, LastName, Interests"
      ), "\(output.stdout)")
    #expect(output.stdout.contains("secret stan…(31 chars)"), "\(output.stdout)")
    expectNoSecret(output)
    let body = try #require(tenant.tokenBodies.first)
    #expect(body["grant_type"] as? String == "client_credentials")
    #expect(body["client_id"] as? String == StandInTenant.clientID)
    #expect(body["client_secret"] as? String == StandInTenant.secret)
    #expect((body["account_id"] as? NSNumber)?.intValue == 123456)
    // Three sets, two a page: two pages, both with the one token.
    #expect(tenant.restCalls.map(\.path).count == 2)
    #expect(tenant.restCalls.allSatisfy { $0.authorization == "Bearer token-1" })
    #expect(tenant.tokensIssued == 1)
  }

  @Test("a token about to expire is renewed before the next call")
  func renewal() async throws {
    let tenant = try StandInTenant(.shortLivedTokens)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(tenant.tokensIssued == 2)
    #expect(tenant.restCalls.map(\.authorization) == ["Bearer token-1", "Bearer token-2"])
  }

  @Test("a token refused on a REST call (expired): one renewal, then the call again")
  func expiredToken() async throws {
    let tenant = try StandInTenant(.expireFirstToken)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(tenant.tokensIssued == 2)
    #expect(tenant.restCalls.first?.authorization == "Bearer token-1")
    #expect(tenant.restCalls.dropFirst().allSatisfy { $0.authorization == "Bearer token-2" })
  }

  @Test("a 429 with Retry-After: waited out as asked, then the call again")
  func throttled() async throws {
    let tenant = try StandInTenant(.throttleOnce)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 0, "\(output.stderr)")
    let calls = tenant.restCalls
    #expect(calls.count == 3)
    if calls.count >= 2 {
      #expect(calls[1].at.timeIntervalSince(calls[0].at) >= 0.9)
    }
  }

  @Test("a secret refused (401 invalid_client): said with where to copy it again, exit 2")
  func refusedSecret() async throws {
    let tenant = try StandInTenant(.refuseSecret)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(
      output.stderr.contains("the tenant refused the client id and secret (invalid_client"),
      "\(output.stderr)")
    #expect(output.stderr.contains("Installed Packages"))
    expectNoSecret(output)
  }

  @Test("a package without the Contacts read scope (403): the scope named, exit 1")
  func noScope() async throws {
    let tenant = try StandInTenant(.noScope)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 1)
    #expect(output.stderr.contains("Contacts: List and Subscribers: Read"), "\(output.stderr)")
  }

  @Test("no MobilePush Demographics set: the sets it has named, exit 1")
  func noDemographics() async throws {
    let tenant = try StandInTenant(.noDemographics)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 1)
    #expect(
      output.stderr.contains(
        "no \"MobilePush Demographics\" attribute set (it has 2: Email Addresses, MobileConnect Demographics)"
      ), "\(output.stderr)")
  }

  @Test("a malformed answer: what is not as documented, exit 2")
  func malformed() async throws {
    let tenant = try StandInTenant(.malformed)
    defer { tenant.stop() }
    let output = try await check(tenant)
    #expect(output.status == 2)
    #expect(
      output.stderr.contains(
        "not what the documentation describes (items is not of the documented type)"),
      "\(output.stderr)")
  }

  @Test("a slow answer: the deadline, exit 2")
  func slow() async throws {
    let tenant = try StandInTenant(.slow(5))
    defer { tenant.stop() }
    let output = try await check(tenant, ["--tenant-timeout", "1"])
    #expect(output.status == 2)
    #expect(output.stderr.contains("no whole answer within 1 s"), "\(output.stderr)")
  }

  @Test("a wrong auth URI (404) and an unreachable host: the field to fix, exit 2")
  func wrongURIs() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let wrong = try await check(tenant, file: try tenant.file(authPath: "/elsewhere"))
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("answered 404: \"auth_base_uri\""), "\(wrong.stderr)")
    let refusing = try #require(RefusingPort())
    let port = refusing.port
    let file = try tenant.file()
    let text = try String(contentsOfFile: file, encoding: .utf8)
      .replacingOccurrences(of: ":\(tenant.port)/", with: ":\(port)/")
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let unreachable = try await check(tenant, file: file)
    #expect(unreachable.status == 2)
    #expect(
      unreachable.stderr.contains("cannot reach http://127.0.0.1:\(port)"), "\(unreachable.stderr)")
    withExtendedLifetime(refusing) {}
  }

  @Test("the file: malformed JSON said with where, a missing field named, others' read said")
  func badFiles() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let file = try tenant.file()
    try Data(#"{"client_id": "x",, }"#.utf8).write(to: URL(fileURLWithPath: file))
    let broken = try await check(tenant, file: file)
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("not valid JSON"), "\(broken.stderr)")
    try Data(#"{"client_id": "x", "auth_base_uri": "https://a.auth.example/"}"#.utf8)
      .write(to: URL(fileURLWithPath: file))
    let missing = try await check(tenant, file: file)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("\"client_secret\" is missing"), "\(missing.stderr)")
    let open = try tenant.file()
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open)
    let shared = try await check(tenant, file: open)
    #expect(shared.status == 0, "\(shared.stderr)")
    #expect(shared.stdout.contains("can be read by other users (mode 644)"), "\(shared.stdout)")
  }

  @Test(
    "serve --tenant: the tenant's demographics named at start and used; not with --defined-attributes"
  )
  func serveUsesTenant() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let file = try tenant.file()
    let serve = try await ServeProcess.start(["--tenant", file])
    let line = try await serve.process.readLine { $0.contains("processing delay") } ?? ""
    try await serve.stop()
    // The receiver's own settings line: the table processing and the judge check against.
    #expect(
      line.contains("demographics Device ID,FirstName,Interests,LastName,System Token"), "\(line)")
    let both = try await runProcess(
      try regctlURL(),
      ["serve", "--port", "0", "--tenant", file, "--defined-attributes", "FirstName"])
    #expect(both.status == 64, "\(both.status)")
    #expect(
      both.stderr.contains("give --tenant or --defined-attributes, not both"), "\(both.stderr)")
    // A tenant file that cannot be read is no wrong option: exit 2, as qa and regscope say it.
    try Data(#"{"client_id": "x",, }"#.utf8).write(to: URL(fileURLWithPath: file))
    let broken = try await runProcess(try regctlURL(), ["serve", "--port", "0", "--tenant", file])
    #expect(broken.status == 2, "\(broken.status): \(broken.stderr)")
    #expect(broken.stderr.contains("regctl serve: ") && broken.stderr.contains("not valid JSON"))
  }
}
