import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import HAR

/// Building an entry with huge strings from its own bytes must give what building it whole
/// gives, with each attribute value cut as the server keeps it.
@Suite("a huge entry built where it lies")
struct HAREntryShrinkerTests {
  static func built(_ text: String) throws -> (whole: CapturedExchange, shrunk: CapturedExchange) {
    var bytes = Array(text.utf8)
    let wholeEntry = try #require(bytes.withUnsafeBytes { HAREntry.object($0) })
    let whole = HAREntry.exchange(wholeEntry, startedAt: 0)
    let shrunk = try #require(
      bytes.withUnsafeMutableBytes { bytes -> CapturedExchange? in
        guard let result = HAREntryShrinker.shrink(bytes),
          let entry = HAREntry.object(UnsafeRawBufferPointer(rebasing: bytes[0..<result.length]))
        else { return nil }
        #expect(result.length < 70_000, "the entry left to build is small")
        return HAREntry.exchange(entry, startedAt: 0, requestText: result.body)
      })
    return (whole, shrunk)
  }

  static func attributes(_ exchange: CapturedExchange) throws -> [String: String] {
    let payload = try WireDecoding.payload(from: Data(exchange.requestBody)).get()
    return Dictionary(
      (payload.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  @Test("values with escapes, accents, emoji and quotes are cut byte for byte as kept() cuts them")
  func keptAsTheServerKeeps() throws {
    let piece = #"a\"b\\c\nd\u00e9\ud83d\ude00é/\/"#
    let long = String(repeating: piece, count: 9_000)
    let small = "short"
    let body = sdkBody(
      device: "BIG",
      attributes: [
        "long": long, "small": small, "edge": "x" + String(repeating: "é", count: 5_000),
      ])
    let text = entry(
      "2026-11-22T10:00:00Z", body: body,
      extra: #","comment":"\#(String(repeating: "q", count: 1_100_000))""#)
    let (whole, shrunk) = try Self.built(text)
    let wholeValues = try Self.attributes(whole).mapValues(ProcessingRules.kept)
    let shrunkValues = try Self.attributes(shrunk)
    #expect(shrunkValues == wholeValues)
    #expect(shrunkValues["long"]?.contains("kept;") == true)
    #expect(shrunk.url == whole.url && shrunk.method == whole.method)
    #expect(shrunk.requestHeaders == whole.requestHeaders && shrunk.status == whole.status)
  }

  @Test("a lone surrogate or a raw control character in the entry: it cannot be read, as whole")
  func unreadable() {
    for bad in [#"\ud800x"#, "\u{01}"] {
      let body = sdkBody(
        device: "BAD", attributes: ["v": String(repeating: "x", count: 70_000) + "MARK"])
      let text = entry("2026-11-22T10:00:00Z", body: body).replacingOccurrences(
        of: "MARK", with: bad)
      var bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBytes { HAREntry.object($0) } == nil)
      let shrunk = bytes.withUnsafeMutableBytes { HAREntryShrinker.shrink($0) }
      #expect(shrunk == nil, "\(bad.debugDescription)")
    }
  }

  @Test("a lone surrogate inside the body's own JSON: the body is refused as it is whole")
  func badBody() throws {
    let body = sdkBody(
      device: "BAD", attributes: ["v": String(repeating: "x", count: 70_000) + #"\ud800"#])
    let (whole, shrunk) = try Self.built(entry("2026-11-22T10:00:00Z", body: body))
    let wholeFailure = WireDecoding.payload(from: Data(whole.requestBody))
    let shrunkFailure = WireDecoding.payload(from: Data(shrunk.requestBody))
    #expect(throws: (any Error).self) { try wholeFailure.get() }
    #expect(throws: (any Error).self) { try shrunkFailure.get() }
  }

  @Test("a long answer cut at a surrogate pair keeps the pair whole: the entry still reads")
  func surrogatePairAtTheCut() throws {
    for padding in 65_520..<65_540 {
      let answer =
        String(repeating: "a", count: padding) + #"\ud83d\ude00"#
        + String(repeating: "b", count: 1_100_000)
      let text = entry("2026-11-22T10:00:00Z", body: sdkBody(device: "S"))
        .replacingOccurrences(of: #""text":"{}""#, with: #""text":"\#(answer)""#)
      var bytes = Array(text.utf8)
      let read = bytes.withUnsafeMutableBytes { bytes -> Bool in
        guard let shrunk = HAREntryShrinker.shrink(bytes) else { return false }
        return HAREntry.object(UnsafeRawBufferPointer(rebasing: bytes[0..<shrunk.length])) != nil
      }
      #expect(read, "cut after \(padding) bytes")
    }
  }

  @Test("a huge body nested past any decoder's depth: no crash, refused as it is whole")
  func deepBody() throws {
    let deep =
      "{\"a\":" + String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
      + "}"
    let (whole, shrunk) = try Self.built(entry("2026-11-22T10:00:00Z", body: deep))
    #expect((try? WireDecoding.payload(from: Data(whole.requestBody)).get()) == nil)
    #expect((try? WireDecoding.payload(from: Data(shrunk.requestBody)).get()) == nil)
  }

  @Test("a huge body that is not JSON stays as wrong as it came: space between tokens is kept")
  func notJSONStaysWrong() throws {
    let body = sdkBody(device: "W", attributes: ["v": String(repeating: "x", count: 70_000)])
      .replacingOccurrences(of: #""timeZone":"0""#, with: #""timeZone": 1 2"#)
    let (whole, shrunk) = try Self.built(entry("2026-11-22T10:00:00Z", body: body))
    #expect((try? WireDecoding.payload(from: Data(whole.requestBody)).get()) == nil)
    #expect((try? WireDecoding.payload(from: Data(shrunk.requestBody)).get()) == nil)
  }
}
