import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// A capture's registration bodies are read as the receiver reads them, and as the tenant
/// did: a key twice is its last value, and a violation.
@Suite("a capture's bodies read as the tenant read them")
struct CaptureBodyReadingTests {
  @Test("R6.2 a deviceID and subscriberKey sent twice: judged as the last values, one violation")
  func duplicatedKeys() throws {
    let body =
      String(sdkBody(device: "REAL", key: "alice").dropLast())
      + #","deviceID":"OTHER","subscriberKey":"mallory"}"#
    let judge = try judged(har([entry("2026-11-22T10:00:00.000Z", body: body)]))
    #expect(judge.devices.map(\.deviceID) == ["OTHER"])
    let device = try #require(judge.devices.first)
    #expect(device.lastSent?.subscriberKey == "mallory")
    #expect(device.findingCounts == [.duplicateKey: 1])
    #expect(judge.worstSeverity == .violation)
  }

  @Test(
    "#51 subscriber\\u212Aey beside subscriberKey: the key's own value, not a key twice; NFC and NFD attributes stay two"
  )
  func keysByBytes() throws {
    let kelvin =
      String(sdkBody(device: "K1", key: "alice").dropLast()) + #","subscriber\u212Aey":"mallory"}"#
    // Not through `sdkBody(attributes:)`: a [String: String] would make the two one key.
    let nfd = sdkBody(device: "N1").replacingOccurrences(
      of: #""attributes":[]"#,
      with: #""attributes":[{"key":"caf\u00e9","value":"1"},{"key":"cafe\u0301","value":"2"}]"#)
    let judge = try judged(
      har([
        entry("2026-11-22T10:00:00.000Z", body: kelvin),
        entry("2026-11-22T10:00:01.000Z", body: nfd),
      ]))
    let device = try #require(judge.devices.first { $0.deviceID == "K1" })
    #expect(device.lastSent?.subscriberKey == "alice")
    #expect(device.findingCounts[.duplicateKey] == nil, "\(device.findingCounts)")
    let attributes = try #require(judge.devices.first { $0.deviceID == "N1" }?.lastSent?.attributes)
    #expect(
      attributes.map { Array($0.key.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
  }

  @Test(
    "#52 a 6 MB entry of a long key over many elements, and one 500 levels deep, are judged",
    .timeLimit(.minutes(10)))
  func largeEntries() throws {
    let head = String(sdkBody(device: "BIG-1").dropLast()) + ","
    let longKey =
      head + "\"" + String(repeating: "k", count: 3 << 20) + "\":["
      + Array(repeating: "0", count: 3 << 19).joined(separator: ",") + "]}"
    let deep =
      String(sdkBody(device: "DEEP-1").dropLast()) + #","x":"# + String(repeating: "[", count: 500)
      + Array(repeating: "0", count: 3 << 20).joined(separator: ",")
      + String(repeating: "]", count: 500) + "}"
    let judge = try judged(
      har([
        entry("2026-11-22T10:00:00.000Z", body: longKey),
        entry("2026-11-22T10:00:01.000Z", body: deep),
      ]))
    #expect(Set(judge.devices.map(\.deviceID)) == ["BIG-1", "DEEP-1"])
  }

  @Test("#52 a key sent 150,000 times is one finding of a line, not of a megabyte")
  func manyRepeats() throws {
    let members = (0..<150_000).map { #""x":\#($0 % 10)"# }.joined(separator: ",")
    let body = String(sdkBody(device: "DUP-1").dropLast()) + "," + members + "}"
    let judge = try judged(har([entry("2026-11-22T10:00:00.000Z", body: body)]))
    let device = try #require(judge.devices.first)
    let finding = try #require(
      device.registrations.first?.findings.first { $0.code == .duplicateKey })
    #expect(finding.message.utf8.count < 500, "\(finding.message.prefix(600))")
    #expect(
      finding.message.contains(
        "x 150,000 times (0, then 1, then 2, then 3, then 4, then 5, then 6, then 149,992 more, then 9)"
      ),
      "\(finding.message.prefix(600))")
  }
}
