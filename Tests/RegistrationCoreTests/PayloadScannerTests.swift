import Foundation
import Testing

@testable import RegistrationCore

/// The fast path for registration bodies reads what the SDKs send, and on every body it
/// accepts gives exactly what Foundation's decoder gives; everything else falls back to
/// Foundation, so errors read as before.
@Suite("the fast registration-body reader")
struct PayloadScannerTests {
  static let android = #"""
    {"app_Version":"1.0","attributes":[{"key":"Tier","value":"gold"}],"dST":false,\#
    "deviceID":"FLEET-1","etAppId":"995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47","hwid":"Google Pixel 8",\#
    "locale":"en_US","location_Enabled":false,"platform":"Android","platform_Version":"14",\#
    "proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,\#
    "registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","signedString":null,\#
    "tags":["ALL","ANDROID"],"timeZone":"0","uuid":"0b9c"}
    """#
  static let iOS = #"""
    {
      "deviceID" : "E7A1", "device_Token" : "abcd", "subscriberKey" : "ada@example.com",
      "etAppId" : "app\u00e9", "platform" : "iPhone OS", "badge" : -12, "language" : "en",
      "attributes" : [ { "key" : "First\tName", "value" : "Zo\u00eb \ud83d\ude00 \"q\" \\ \/" },
        { "value" : "", "key" : "Plan" } ],
      "tags" : [ ], "push_Enabled" : true, "dST" : null, "hwid" : "iPhone15,2",
      "registrationId" : null, "unknown" : "kept out", "other" : false
    }
    """#
  /// The SDK documentation's example: a raw TAB inside a string (R6.4).
  static let rawTab = "{\"deviceID\":\"D\",\"etAppId\":\"a\tb\",\"badge\":0}"

  static func fast(_ text: String) -> RegistrationPayload? {
    fast(Array(text.utf8))
  }

  static func fast(_ bytes: [UInt8]) -> RegistrationPayload? {
    bytes.withUnsafeBytes(PayloadScanner.payload)
  }

  static func foundation(_ bytes: [UInt8]) -> Result<RegistrationPayload, WireDecoding.Failure> {
    WireDecoding.foundationPayload(from: Data(bytes))
  }

  @Test("the SDKs' bodies are read on the fast path, as Foundation reads them")
  func sdkBodies() throws {
    for body in [Self.android, Self.iOS, Self.rawTab, "{}", " { } "] {
      let read = try #require(Self.fast(body), "not read on the fast path: \(body)")
      #expect(Self.foundation(Array(body.utf8)) == .success(read))
    }
    let iOS = try #require(Self.fast(Self.iOS))
    #expect(iOS.attributes?.first?.value == "Zoë 😀 \"q\" \\ /")
    #expect(iOS.badge == -12 && iOS.tags == [] && iOS.dst == nil)
  }

  @Test("every wire key is found at once, and nothing else is")
  func keysFound() {
    let keys = [
      "deviceID", "device_Token", "subscriberKey", "etAppId", "platform", "platform_Version",
      "app_Version", "sdk_Version", "hwid", "locale", "language", "timeZone", "registrationId",
      "uuid", "signedString", "registrationDateUtc", "dST", "push_Enabled", "quietPushEnabled",
      "location_Enabled", "proximity_Enabled", "badge", "tags", "attributes",
    ]
    var found = Set<Int>()
    for key in keys {
      let index = Array(key.utf8).withUnsafeBufferPointer(PayloadScanner.fieldIndex)
      #expect(index != nil, "\(key) is not found")
      if let index { found.insert(index) }
    }
    #expect(found.count == keys.count)
    for other in ["deviceId", "devicEID", "d", "", "platforms", "tag", "uuid\u{80}"] {
      #expect(
        Array(other.utf8).withUnsafeBufferPointer(PayloadScanner.fieldIndex) == nil, "\(other)")
    }
  }

  @Test(
    "what the fast path is unsure of goes to Foundation, and its error reads as before",
    arguments: [
      #"{"deviceID":"A","deviceID":"B"}"#, #"{"deviceID":7}"#, #"{"badge":1.5}"#,
      #"{"badge":01}"#, #"{"badge":-0}"#, #"{"badge":12345678901234567890}"#,
      #"{"deviceID":"\ud800"}"#, #"{"deviceID":"A"} x"#, #"{"tags":["A",null]}"#,
      #"{"attributes":[{"key":"A"}]}"#, #"{"attributes":[{"key":"A","value":"b","x":1}]}"#,
      #"{"k\u00e9":1}"#, #"{"tags":[],"tags":[]}"#, #"{"x":true,"x":true}"#, #"{"extra":[1]}"#,
      #"{"push_Enabled":"yes"}"#,
      #"{"deviceID":"A",}"#, #"["deviceID"]"#, #"{"deviceID":"\q"}"#, "",
    ])
  func unsure(body: String) {
    #expect(Self.fast(body) == nil)
    #expect(WireDecoding.payload(from: Data(body.utf8)) == Self.foundation(Array(body.utf8)))
  }

  @Test("invalid UTF-8 is left to Foundation")
  func invalidUTF8() {
    let bytes = Array(#"{"deviceID":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
    #expect(Self.fast(bytes) == nil)
  }

  /// The Android body with two keys sent again at its end, as an interceptor would.
  static let duplicated =
    String(Self.android.dropLast()) + #","deviceID":"OTHER","tags":null,"tags":["vip",],"x":1}"#

  @Test("a key twice is left to the full path, which reads its last value as the tenant does")
  func duplicates() throws {
    for body in [
      #"{"deviceID":"A","deviceID":"B"}"#, #"{"tags":null,"tags":["a"]}"#,
      #"{"x":"1","deviceID":"B","x":"2"}"#, #"{"attributes":[{"key":"A","value":"1","key":"B"}]}"#,
    ] {
      #expect(Self.fast(body) == nil, "\(body)")
      let read = try WireDecoding.payload(from: Data(body.utf8)).get()
      #expect(read.duplicateKeys?.isEmpty == false, "\(body)")
    }
    #expect(
      try WireDecoding.payload(from: Data(#"{"tags":null,"tags":["a"]}"#.utf8)).get().tags == ["a"])
    // Strict JSON without the repeats: the fast path reads it, and the same as the full path.
    let once = Array(#"{"deviceID":"B","tags":["a"]}"#.utf8)
    let fast = try #require(Self.fast(once))
    #expect(Self.foundation(once) == .success(fast) && fast.duplicateKeys == nil)
  }

  /// Thousands of bodies a byte away from the SDKs' (deleted, doubled, replaced by a JSON
  /// character), and from one with repeated keys and a trailing comma: whenever the fast path
  /// reads one, the full path (the strict reading, then Foundation) reads the same payload; a
  /// body strict JSON refuses, or with a key twice, is never read by the fast path.
  @Test("bodies a byte away from the SDKs' never read differently")
  func mutations() {
    var random = SplitMix(seed: 28)
    let alphabet = Array(#"{}[]":,\ 0123456789-.eEtruefalsn"#.utf8) + [0x09, 0x00, 0xFF]
    var readFast = 0
    for base in [Self.android, Self.iOS, Self.duplicated].map({ Array($0.utf8) }) {
      for _ in 0..<3_000 {
        var bytes = base
        for _ in 0...(random.next() % 2) {
          let index = Int(random.next() % UInt64(bytes.count))
          switch random.next() % 3 {
          case 0: bytes.remove(at: index)
          case 1: bytes.insert(bytes[index], at: index)
          default: bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
          }
        }
        guard let read = Self.fast(bytes) else { continue }
        readFast += 1
        #expect(
          Self.foundation(bytes) == .success(read), "\(String(decoding: bytes, as: UTF8.self))")
      }
    }
    // Many mutations keep a valid body (a changed letter in a value), so the comparison ran.
    #expect(readFast > 1_000)
  }
}

/// A small seeded generator, so the mutations are the same every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
