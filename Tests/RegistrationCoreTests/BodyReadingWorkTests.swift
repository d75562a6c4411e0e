import Foundation
import Testing

@testable import RegistrationCore

/// Reading a body is work in proportion to the body (#52). The strict reading made each
/// item's path (`key[0]`, `key[1]`, ...) as a string, so a long key over many elements cost
/// the key's length times the elements: a 1 MB body took 2.9 s, and `regctl judge` of a 6 MB
/// entry 95 s. Counted, not timed: the text the reading makes (`StrictJSON.Reading.textMade`)
/// is held to the body's size, and grows 4 times when the body does, at sizes where the
/// quadratic reading made gigabytes of paths.
@Suite("#52 reading a body is work in proportion to it", .timeLimit(.minutes(10)))
struct BodyReadingWorkTests {
  /// The shapes that made the reading quadratic, `size` bytes or a little more.
  enum Shape: String, CaseIterable {
    /// A key of half the body over elements: a path of the key's length made per element.
    case longKeyOverElements
    /// The same over objects, each a container whose path was made.
    case longKeyOverObjects
    /// A long key over an object of many members: `key.member` made per member.
    case longKeyOverMembers
    /// 500 levels deep, then elements: a path of 500 indexes made per element.
    case deepElements
    /// Objects that each hold a key twice, under a long key: a path made per repeat.
    case repeatsUnderLongKey

    func body(size: Int) -> [UInt8] {
      let head = #"{"deviceID":"D1","etAppId":"app","platform":"Android","#
      let key = "\"" + String(repeating: "k", count: size / 2) + "\":"
      func list(_ item: String, _ count: Int) -> String {
        Array(repeating: item, count: count).joined(separator: ",")
      }
      switch self {
      case .longKeyOverElements:
        return Array((head + key + "[" + list("0", size / 4) + "]}").utf8)
      case .longKeyOverObjects:
        return Array((head + key + "[" + list("{}", size / 6) + "]}").utf8)
      case .longKeyOverMembers:
        let members = (0..<(size / 16)).map { "\"m\($0)\":0" }.joined(separator: ",")
        return Array((head + key + "{" + members + "}}").utf8)
      case .deepElements:
        let depth = 500
        let open = String(repeating: "[", count: depth)
        let close = String(repeating: "]", count: depth)
        return Array((head + #""x":"# + open + list("0", size / 2) + close + "}").utf8)
      case .repeatsUnderLongKey:
        return Array((head + key + "[" + list(#"{"a":0,"a":1}"#, size / 28) + "]}").utf8)
      }
    }
  }

  static func reading(_ bytes: [UInt8]) throws -> StrictJSON.Reading {
    try bytes.withUnsafeBufferPointer { StrictJSON.read($0) }.get()
  }

  @Test(
    "the text a reading makes stays within the body's size, and grows 4x when it does",
    arguments: Shape.allCases)
  func linear(shape: Shape) throws {
    // At 256 KiB the quadratic reading made 0.2 to 9 GB of paths (seconds), at 1 MiB 16 times
    // that (minutes): the larger is read only once the smaller held.
    let small = shape.body(size: 256 << 10)
    let madeSmall = try Self.reading(small).textMade
    try #require(
      madeSmall <= 2 * small.count, "\(shape): \(madeSmall) bytes made of \(small.count)")
    let large = shape.body(size: 1 << 20)
    let made = (madeSmall, try Self.reading(large).textMade)
    #expect(made.1 <= 2 * large.count, "\(shape): \(made.1) bytes made of \(large.count)")
    // 4 times the body, at most about 4 times the text (the keys'), never 16.
    let growth = Double(made.1) / Double(max(made.0, 1))
    #expect(growth < 5, "\(shape): \(made.0) then \(made.1), \(growth)x")
    // The whole reading (the fast path, then the strict one and Foundation's decoder) reads
    // it: a registration of D1 whatever else it carries.
    #expect(try WireDecoding.payload(from: large).get().deviceID == "D1")
  }

  @Test("a key repeated in thousands of objects is said 16 times, each path made once")
  func repeatsSaid() throws {
    let body = Shape.repeatsUnderLongKey.body(size: 256 << 10)
    let reading = try Self.reading(body)
    #expect(reading.duplicates.count == StrictJSON.duplicatesSaid)
    // The long key is cut in the path as a value is: 64 bytes and an ellipsis.
    let first = try #require(reading.duplicates.first)
    #expect(first.key == String(repeating: "k", count: 64) + "…[0].a", "\(first.key.prefix(80))")
    #expect(first.values == ["0", "1"])
  }

  @Test("a key sent 150,000 times is said by its first seven values, its last and its count")
  func valuesSaid() throws {
    let members = (0..<150_000).map { #""x":\#($0 % 10)"# }.joined(separator: ",")
    let body = Array((#"{"deviceID":"D1","# + members + "}").utf8)
    let reading = try Self.reading(body)
    let duplicate = try #require(reading.duplicates.first)
    #expect(duplicate.times == 150_000)
    #expect(duplicate.values == ["0", "1", "2", "3", "4", "5", "6", "9"])
    // Each key made once (a byte each here) and eight values said: within the body's size.
    #expect(reading.textMade < body.count / 4, "\(reading.textMade) bytes made of \(body.count)")
    #expect(try WireDecoding.payload(from: body).get().duplicateKeys == [duplicate])
  }
}
