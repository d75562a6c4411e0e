import Foundation
import Testing

@testable import InspectorUI

@Suite("the Payload pane's JSON")
struct ReadableJSONTests {
  /// What the pane showed before: JSONSerialization's pretty print with sorted keys, without
  /// the blank line it puts in an empty array or object.
  static func serialized(_ text: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    let data = try JSONSerialization.data(
      withJSONObject: object,
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test(
    "laid out line for line as JSONSerialization's sorted pretty print",
    arguments: [
      // The shapes the SDKs send, keys in SDK order.
      #"{"etAppId":"0e7b","deviceID":"D1","hwid":"iPhone15,2","platform":"iOS","platform_Version":"17.5","push_Enabled":true,"location_Enabled":false,"timeZone":-18000,"dST":false,"locale":"en_US","language":"en","tags":["ALL","IOS"],"attributes":[{"key":"FIRST_NAME","value":"Zoë \"Z\" \\ /"}],"sdk_Version":"10.0.0","app_Version":"1.0","registrationId":null,"badge":0,"quietPushEnabled":false}"#,
      #"{"a10":1,"a9":2,"A1":3,"b_c":4,"bC":5,"b2":6,"":7,"z":[],"y":{},"x":[[1,2],{"k":[true,null]}]}"#,
      #"{"tab":"a\tb\nc\u0001","uni":"東京 👨‍👩‍👧","num":1.5,"neg":-0.25,"big":12345678901234,"exp":1e-7}"#,
      #"[1,"two",{"three":3}]"#,
      #""just a string""#,
    ])
  func sameAsSerialization(text: String) throws {
    #expect(ReadableJSON.lines(Array(text.utf8)) == (try Self.serialized(text)))
  }

  @Test("what is not JSON is shown as its lines; nothing traps on hostile bodies")
  func notJSON() {
    #expect(ReadableJSON.lines(Array("not json\nat all".utf8)) == ["not json", "at all"])
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(ReadableJSON.lines(Array(deep.utf8)).count == 1)
    #expect(ReadableJSON.lines([0xFF, 0xFE, 0x7B]).count == 1)
    #expect(ReadableJSON.lines(Array(#"{"n":1e999}"#.utf8)).count >= 1)
    #expect(
      ReadableJSON.lines(Array(#"{"a":99999999999999999999,"b":-1e20,"c":-0}"#.utf8))
        == ["{", #"  "a" : 1e+20,"#, #"  "b" : -1e+20,"#, #"  "c" : 0"#, "}"])
  }
}
