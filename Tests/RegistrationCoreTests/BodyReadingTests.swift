import Foundation
import Testing

@testable import RegistrationCore

/// One reading of a registration body, as a strict JSON reader and the tenant read it: what is
/// not JSON is refused saying what and where, and a key twice is read by its last value and
/// named.
@Suite("R6 a body read as the tenant reads it")
struct BodyReadingTests {
  static func read(_ body: String) -> Result<RegistrationPayload, WireDecoding.Failure> {
    WireDecoding.payload(from: Data(body.utf8))
  }

  @Test("R6.2 a key twice is read by its last value, and each such key is named with its values")
  func lastValueRead() throws {
    let both = try Self.read(
      #"{"deviceID":"REAL","subscriberKey":"alice","etAppId":"a","deviceID":"OTHER","subscriberKey":"mallory"}"#
    ).get()
    #expect(both.deviceID == "OTHER" && both.subscriberKey == "mallory" && both.etAppId == "a")
    #expect(
      both.duplicateKeys == [
        .init(key: "deviceID", values: [#""REAL""#, #""OTHER""#]),
        .init(key: "subscriberKey", values: [#""alice""#, #""mallory""#]),
      ])
    #expect(try Self.read(#"{"tags":null,"tags":["a"]}"#).get().tags == ["a"])
    #expect(try Self.read(#"{"tags":["a"],"tags":null}"#).get().tags == nil)
    // A key is compared as the tenant compares it: after its escapes.
    let escaped = try Self.read(#"{"deviceID":"A","device\u0049D":"B"}"#).get()
    #expect(escaped.deviceID == "B")
    #expect(escaped.duplicateKeys?.first?.key == "deviceID")
    // Inside an attribute, and three times.
    let nested = try Self.read(
      #"{"attributes":[{"key":"Tier","value":"1","value":"2","value":"3"}],"badge":1,"badge":2}"#
    ).get()
    #expect(nested.attributes == [.init(key: "Tier", value: "3")] && nested.badge == 2)
    #expect(
      nested.duplicateKeys == [
        .init(key: "attributes[0].value", values: [#""1""#, #""2""#, #""3""#]),
        .init(key: "badge", values: ["1", "2"]),
      ])
    // A superseded member holding its own repeated key is dropped whole.
    let inside = try Self.read(
      #"{"attributes":[{"key":"A","key":"B","value":"x"}],"attributes":[{"key":"C","value":"y"}]}"#
    ).get()
    #expect(inside.attributes == [.init(key: "C", value: "y")])
    #expect(inside.duplicateKeys?.map(\.key) == ["attributes[0].key", "attributes"])
    // Every key once: nothing said, and the record is the same either way.
    let once = try Self.read(#"{"deviceID":"OTHER","subscriberKey":"mallory","etAppId":"a"}"#)
      .get()
    #expect(once.duplicateKeys == nil && once.isSameRecord(as: both))
  }

  @Test(
    "what a strict reader refuses is a notJSON failure naming what and where",
    arguments: [
      (
        #"{"tags":["vip",]}"#,
        #"a trailing comma before "]": JSON allows none at line 1, column 15 (byte 14)"#
      ),
      ("{\"deviceID\":\"A\",\n}", #"a trailing comma before "}""#),
      (#"{"deviceID":"A" "x":1}"#, #"expected "," or "}", found """#),
      (#"{"badge":01}"#, "a number with a leading zero at line 1, column 10"),
      (#"{"x":01}"#, "a number with a leading zero"),
      (#"{"x":1.}"#, "a decimal point without digits after it"),
      (#"{"x":NaN}"#, #"expected a value, found "N""#),
      (#"{"x":+1}"#, #"expected a value, found "+""#),
      (#"{"x":tru}"#, #"expected a value"#),
      (#"{"x":[1,,2]}"#, "a comma where a value belongs"),
      (#"{,"x":1}"#, "expected a key in double quotes"),
      (#"{"deviceID":"A"} x"#, #"text after the JSON value: "x""#),
      (#"{"deviceID":"A""#, "the body ends inside an object"),
      (#"{"deviceID":"A"#, "a string that never ends"),
      (#"{"deviceID":"\q"}"#, #"an unknown escape \q"#),
      (#"{"deviceID":"\ud800"}"#, #"a lone high surrogate \uD800"#),
      (#"{"deviceID":"\udc00"}"#, #"a lone low surrogate \uDC00"#),
      ("", "expected a value, found the end"),
      (String(repeating: "[", count: 600), "nested deeper than 512 levels"),
    ])
  func strict(body: String, said: String) {
    guard case .failure(.notJSON(let detail)) = Self.read(body) else {
      Issue.record("\(body): expected notJSON, got \(Self.read(body))")
      return
    }
    #expect(detail.contains(said), "\(body): \(detail)")
    #expect(detail.contains(" at line "), "\(detail)")
  }

  @Test("R6.4 raw control characters inside strings stay the one exception; invalid UTF-8 is named")
  func exceptions() throws {
    #expect(try Self.read("{\"etAppId\":\"\ta\",\"deviceID\":\"D\"}").get().etAppId == "\ta")
    let bytes = Array(#"{"deviceID":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
    guard case .failure(.notJSON(let detail)) = WireDecoding.payload(from: bytes) else {
      Issue.record("expected notJSON")
      return
    }
    #expect(detail.contains("not valid UTF-8 at line 1, column 13"), "\(detail)")
  }
}
