import Clocks
import Foundation
import RegistrationCore
import SessionHTTP
import TestSupport
import Testing

@testable import RegistrationEngine

/// The inbox fetch on the wire, as each major sends it (SDK-FACTS, "Across SDK majors"): 8.x
/// asks with `messagetype=8&contenttype=2`, 9.x and 10.0 with a watermark; the headers are the
/// device routes', in the version's case, with the subscriber token once one was handed out.
@Suite("the inbox fetch per SDK major, on the wire", .serialized)
struct InboxWireTests {
  @Test(
    "8.x asks by message and content type, 9.x and 10.x by watermark",
    arguments: [
      ("android@8.2.1", "messagetype=8&contenttype=2", true),
      ("android@8.2.2", "messagetype=8&contenttype=2", false),
      ("ios@8.1.4", "messagetype=8&contenttype=2", true),
      ("android@9.0.0", "wm=0", false), ("ios@9.0.1", "wm=0", true), ("android", "wm=0", false),
    ])
  func query(spelled: String, query: String, mixedCase: Bool) async throws {
    let profile = try #require(SDKProfile(loose: spelled))
    let platform = try #require(profile.platform)
    let server = try CaptureServer(answer: #"{"messages":[]}"#)
    defer { server.stop() }
    let (engine, clock) = try ProfileWireTests.engine(profile, platform: platform, server: server)
    try await engine.launch()
    try await engine.advance(clock, to: Instant(ProfileWireTests.sendTime))
    let (request, result) = try await engine.fetchInbox()
    await engine.shutDown()
    guard case .answered(_, _, let body, _) = result else {
      Issue.record("no answer: \(result)")
      return
    }
    #expect(body == #"{"messages":[]}"#)
    let sent = try #require(server.requests.first { $0.method == "GET" })
    #expect(
      sent.path == "/device/v1/\(ProfileWireTests.appID)/message/?deviceid=WIRE-DEVICE&\(query)",
      "\(sent.path)")
    #expect(request.target == sent.path)
    let names = ProfileWireTests.profileHeaders(sent)
    #expect(names.contains("User-Agent") == mixedCase, "\(names)")
    #expect(!names.map { $0.lowercased() }.contains("content-type"), "a GET has no body")
    #expect(sent.header("authorization") == "Bearer \(ProfileWireTests.token)")
    // The registration before it handed out a token (the capture server's answer has none
    // here), so none goes back; the version is the profile's.
    #expect(
      sent.header("user-agent")?.hasPrefix("MarketingCloudSdk/\(profile.sdkVersion) ") == true)
  }
}
