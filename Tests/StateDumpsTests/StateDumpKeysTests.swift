import Foundation
import RegistrationCore
import Testing

@testable import StateDumps

/// A state dump's registrations are read by their keys' bytes, as the tenant and the SDKs read
/// them (#51): the iOS dump holds its registrations as objects, which a `JSONSerialization`
/// round trip merged by Unicode equivalence.
@Suite("#51 a state dump's keys read by their bytes")
struct StateDumpKeysTests {
  /// An iOS dump whose current registration is `current` (JSON text of an object).
  static func iosDump(current: String) -> Data {
    Data(
      #"""
      {"Registration Details": {"Current Registration": \#(current),
        "Last Successfully Sent Registration": {"deviceID": "IOS-1", "etAppId": "app", "platform": "iOS", "attributes": [], "tags": ["ALL", "IOS"]},
        "Date of Last Successful Registration": "2026-11-21T09:30:00.000Z"},
       "Retry Alarms Active": {}}
      """#.utf8)
  }

  @Test("an iOS dump's subscriber\\u212Aey beside subscriberKey: the key's own value, no key twice")
  func kelvin() throws {
    for current in [
      #"{"deviceID":"IOS-1","etAppId":"app","platform":"iOS","subscriberKey":"alice","subscriber\u212Aey":"mallory"}"#,
      #"{"deviceID":"IOS-1","etAppId":"app","platform":"iOS","subscriber\u212Aey":"mallory","subscriberKey":"alice"}"#,
    ] {
      let reading = try StateDumpImport.read(Self.iosDump(current: current), source: "dump")
      #expect(reading.current.subscriberKey == "alice", "\(current)")
      #expect(reading.current.duplicateKeys == nil, "\(current)")
    }
  }

  @Test("NFC and NFD attribute keys are two pending changes, never one")
  func normalForms() throws {
    let current =
      #"{"deviceID":"IOS-1","etAppId":"app","platform":"iOS","attributes":[{"key":"caf\u00e9","value":"1"},{"key":"cafe\u0301","value":"2"}],"tags":["ALL","IOS"]}"#
    let reading = try StateDumpImport.read(Self.iosDump(current: current), source: "dump")
    let attributes = reading.pending.filter { $0.hasPrefix("attribute ") }
    #expect(attributes.count == 2, "\(reading.pending)")
    #expect(reading.current.attributes?.count == 2)
  }

  @Test("JSONMember finds a value by its keys' bytes, escapes decoded, a key twice by its last")
  func member() throws {
    let document = Data(
      #"{"a": {"x": 1, "b\u0021": [1, {"}": "]"}], "b!": {"k": "v"}}, "caf\u00e9": 1, "cafe\u0301": 2}"#
        .utf8)
    #expect(JSONMember.bytes(at: ["a", "b!"], in: document) == Data(#"{"k": "v"}"#.utf8))
    #expect(JSONMember.bytes(at: ["a", "b!", "k"], in: document) == Data(#""v""#.utf8))
    #expect(JSONMember.bytes(at: ["cafe\u{301}"], in: document) == Data("2".utf8))
    #expect(JSONMember.bytes(at: ["caf\u{E9}"], in: document) == Data("1".utf8))
    #expect(JSONMember.bytes(at: ["a", "missing"], in: document) == nil)
    #expect(JSONMember.bytes(at: ["a", "x", "y"], in: document) == nil)
  }
}
