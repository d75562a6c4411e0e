import EngagementCore
import EngagementServer
import Foundation
import TenantAPI
import TestSupport
import Testing

@testable import ToolSupport

/// The read-back's lookup (`TenantTable.pushAddressLookup`) against the stand-in tenant, after
/// the app's registration went to the stand-in's device route as a relay sends it: the
/// device's push address found under its key and its values read, a registration processing
/// rejects (S5) not there, values in an unknown shape not read, a 429 passed on with its wait.
@Suite("the read-back's lookup against the stand-in tenant", .timeLimit(.minutes(10)))
struct ReadBackLookupTests {
  static func table(_ tenant: StandInTenant) async throws -> TenantTable {
    let loaded = try TenantFile.load(path: try tenant.file())
    let client = TenantClient(loaded.credentials, deadline: Double(HangGuard.seconds))
    return TenantTable(
      client: client, demographics: try await client.demographics(), warnings: [])
  }

  static func register(_ tenant: StandInTenant, device: String, attributes: [String: String])
    async throws
  {
    let body = sdkBody(device: device, key: "user-1", attributes: attributes)
    let answer = try await rawExchange(
      port: tenant.port,
      Array(
        ("POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
  }

  @Test("filed: the device's address under its key, its values read; rejected (S5): not there")
  func filedAndRejected() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let lookup = try await Self.table(tenant).pushAddressLookup
    try await Self.register(tenant, device: "PIXEL-1", attributes: ["FirstName": "Ada"])
    try await Self.register(tenant, device: "PIXEL-2", attributes: ["Plan": "gold"])
    guard case .held(let filed) = await lookup("user-1", "PIXEL-1") else {
      Issue.record("no holding")
      return
    }
    #expect(filed.address?.values == ["FirstName": "Ada"])
    #expect(filed.address?.status == "Active" && filed.otherPushAddresses == 0)
    guard case .held(let rejected) = await lookup("user-1", "PIXEL-2") else {
      Issue.record("no holding")
      return
    }
    #expect(rejected.address == nil)
    #expect(rejected.otherPushAddresses == 1, "PIXEL-1 is the contact's other push address")
  }

  @Test("values in a shape no reader knows: the address found, its values nil (not read)")
  func opaque() async throws {
    let tenant = try StandInTenant(.opaqueValueSets)
    defer { tenant.stop() }
    let lookup = try await Self.table(tenant).pushAddressLookup
    try await Self.register(tenant, device: "PIXEL-3", attributes: ["FirstName": "Ada"])
    guard case .held(let holding) = await lookup("user-1", "PIXEL-3") else {
      Issue.record("no holding")
      return
    }
    #expect(holding.address != nil && holding.address?.values == nil)
  }

  @Test("a 429 comes back as throttled with the tenant's wait; an unreachable tenant as failed")
  func throttledAndFailed() async throws {
    let tenant = try StandInTenant(.throttleSearch("90"))
    let table = try await Self.table(tenant)
    guard case .throttled(let after, let why) = await table.pushAddressLookup("user-1", "X") else {
      Issue.record("not throttled")
      return
    }
    #expect(after == 90 && why.contains("50100"))
    tenant.stop()
    guard case .failed(let problem) = await table.pushAddressLookup("user-1", "X") else {
      Issue.record("not failed")
      return
    }
    #expect(!problem.contains(StandInTenant.secret))
  }
}
