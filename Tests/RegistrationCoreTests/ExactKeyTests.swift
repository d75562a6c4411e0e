import Foundation
import Testing

@testable import RegistrationCore

/// JSON keys are read as the tenant reads them (#51): by their bytes, never by Unicode
/// equivalence, which Swift's `String` compares by. `"subscriber\u212Aey"` (KELVIN SIGN) is a key
/// the tenant does not know, not `subscriberKey`; `"caf\u00e9"` and `"cafe\u0301"` are two keys;
/// a key twice is the same bytes twice. The fast path and the full path agree on each.
@Suite("R6 keys read byte for byte, as the tenant reads them")
struct ExactKeyTests {
  /// Both readings of `body`: the fast path's (nil when it leaves the body), and the full
  /// path's (the strict reading, then Foundation's decoder).
  static func both(_ body: String) -> (fast: RegistrationPayload?, full: RegistrationPayload?) {
    let bytes = Array(body.utf8)
    return (
      bytes.withUnsafeBytes(PayloadScanner.payload),
      try? WireDecoding.foundationPayload(from: Data(bytes)).get()
    )
  }

  /// The payload as bytes: `RegistrationPayload`'s `==` compares its strings by canonical
  /// equivalence, which would call an NFC key and an NFD key the same.
  static func bytes(_ payload: RegistrationPayload?) -> [UInt8]? {
    payload.map { CanonicalBody.encode($0) }
  }

  static let device = #""deviceID":"D1","etAppId":"app","platform":"Android""#

  @Test(
    "#51 subscriber\\u212Aey is not subscriberKey: ignored alone, and never taken for it beside it",
    arguments: [#"subscriber\u212Aey"#, "subscriber\u{212A}ey"])
  func kelvin(spelling: String) throws {
    #expect("subscriber\u{212A}ey" == "subscriberKey", "the trap: String == is canonical")
    let lone = "{\(Self.device),\"\(spelling)\":\"mallory\"}"
    let alone = try WireDecoding.payload(from: Data(lone.utf8)).get()
    #expect(alone.subscriberKey == nil && alone.duplicateKeys == nil)
    for body in [
      "{\(Self.device),\"subscriberKey\":\"alice\",\"\(spelling)\":\"mallory\"}",
      "{\(Self.device),\"\(spelling)\":\"mallory\",\"subscriberKey\":\"alice\"}",
      "{\"\(spelling)\":7,\(Self.device),\"subscriberKey\":\"alice\"}",
    ] {
      let read = try WireDecoding.payload(from: Data(body.utf8)).get()
      #expect(read.subscriberKey == "alice", "\(body)")
      #expect(read.duplicateKeys == nil, "not a key twice: \(body)")
      let (fast, full) = Self.both(body)
      #expect(fast == nil || Self.bytes(fast) == Self.bytes(full), "\(body)")
    }
  }

  @Test("#51 NFC and NFD spellings are two keys: of the body, and of attributes, on both paths")
  func normalForms() throws {
    #expect("caf\u{E9}" == "cafe\u{301}", "the trap: String == is canonical")
    // Two keys of the body the payload does not have: not a duplicate, nothing dropped.
    let body = #"{"deviceID":"D1","caf\u00e9":"1","cafe\u0301":"2","etAppId":"app"}"#
    let read = try WireDecoding.payload(from: Data(body.utf8)).get()
    #expect(read.duplicateKeys == nil && read.deviceID == "D1" && read.etAppId == "app")
    // As attribute keys (raw UTF-8 and escaped): two attributes, each with its own bytes,
    // read alike by the fast path and the full one.
    for attributes in [
      #"[{"key":"caf\u00e9","value":"1"},{"key":"cafe\u0301","value":"2"}]"#,
      "[{\"key\":\"caf\u{E9}\",\"value\":\"1\"},{\"key\":\"cafe\u{301}\",\"value\":\"2\"}]",
    ] {
      let body = "{\(Self.device),\"attributes\":\(attributes)}"
      let (fast, full) = Self.both(body)
      let read = try #require(fast, "an SDK's shape, read on the fast path: \(body)")
      #expect(Self.bytes(read) == Self.bytes(full), "\(body)")
      let keys = (read.attributes ?? []).map { Array($0.key.utf8) }
      #expect(keys == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
    }
  }

  @Test(
    "#51 a duplicate is the same bytes twice, read by its last value; an equivalent spelling is not one"
  )
  func duplicateByBytes() throws {
    // NFC twice around an NFD: the NFC key's last value, the NFD one apart.
    let body =
      #"{"deviceID":"D1","attributes":[{"key":"A","value":"1"}],"caf\u00e9":1,"cafe\u0301":2,"caf\u00e9":3}"#
    let read = try WireDecoding.payload(from: Data(body.utf8)).get()
    #expect(read.duplicateKeys == [.init(key: "caf\u{E9}", values: ["1", "3"])])
    #expect(read.duplicateKeys?.first.map { Array($0.key.utf8) } == Array("caf\u{E9}".utf8))
    // The known key twice with its lookalike between: the last subscriberKey, once said.
    let kelvin =
      #"{"subscriberKey":"alice","subscriber\u212Aey":"mallory","deviceID":"D1","subscriberKey":"bob"}"#
    let both = try WireDecoding.payload(from: Data(kelvin.utf8)).get()
    #expect(both.subscriberKey == "bob")
    #expect(both.duplicateKeys == [.init(key: "subscriberKey", values: [#""alice""#, #""bob""#])])
    // A lookalike twice: a duplicate of its own (its last value read), still not the key.
    let twice = #"{"subscriber\u212Aey":"a","deviceID":"D1","subscriber\u212Aey":"b"}"#
    let read2 = try WireDecoding.payload(from: Data(twice.utf8)).get()
    #expect(read2.subscriberKey == nil && read2.duplicateKeys?.count == 1)
    // In an attribute, "key" twice: its last, on the full path (the fast path leaves it).
    let attribute = #"{"attributes":[{"key":"caf\u00e9","key":"cafe\u0301","value":"v"}]}"#
    let (fast, full) = Self.both(attribute)
    #expect(fast == nil)
    #expect(full?.attributes?.first.map { Array($0.key.utf8) } == Array("cafe\u{301}".utf8))
  }

  @Test("ExactKey compares and hashes bytes; a lookalike is equivalent to a name, never it")
  func exactKey() {
    #expect(ExactKey("subscriber\u{212A}ey") != ExactKey("subscriberKey"))
    #expect(Set([ExactKey("caf\u{E9}"), ExactKey("cafe\u{301}")]).count == 2)
    #expect(
      ExactKey("deviceID") == ExactKey(String(decoding: Array("deviceID".utf8), as: UTF8.self)))
    let names = StrictJSON.decodedNames
    #expect(ExactKey.isLookalike("subscriber\u{212A}ey", of: names))
    #expect(!ExactKey.isLookalike("subscriberKey", of: names))
    #expect(!ExactKey.isLookalike("caf\u{E9}", of: names))
  }
}
