import RegistrationCore

/// How much a tenant's answer holds, counted in one pass over its bytes before a decoder
/// builds it: a decoder holds some fifty bytes for each value, so an answer of 16 MiB of
/// `0,0,0,...` (eight million values) would take half a gigabyte to be found wrong.
struct AnswerShape: Equatable {
  /// Every value (each object, array, member value and element), counted as the commas and
  /// openings outside strings: an upper bound (an empty `{}` counts two).
  var values = 0
  var objects = 0

  init(_ body: [UInt8]) {
    var tracker = JSONStringTracker()
    var commas = 0
    var openings = 0
    for byte in body where tracker.outside(byte) {
      switch byte {
      case UInt8(ascii: ","): commas += 1
      case UInt8(ascii: "{"):
        objects += 1
        openings += 1
      case UInt8(ascii: "["): openings += 1
      default: break
      }
    }
    values = body.isEmpty ? 0 : commas + openings + 1
  }

  /// Values a page of the tenant's answers may hold: 50 attribute sets of a thousand
  /// attributes with a dozen fields each, three times over; a page of addresses far more
  /// than the Contacts API pages.
  static let mostValues = 2_000_000

  /// `body`'s shape, or a refusal when it holds more values than a page may (`holding`: what
  /// the page could hold, said after the count).
  static func read(_ body: [UInt8], what: String, holding: String = "") throws(TenantFailure)
    -> AnswerShape
  {
    // The decoders take UTF-16 and UTF-32 too, where a byte of 0x22 need not be a quote: the
    // count would not hold. The tenant answers UTF-8, which never holds a NUL byte.
    if body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE]) || body.contains(0) {
      throw .malformed(what: what, reason: "the answer is not UTF-8 text")
    }
    let shape = AnswerShape(body)
    guard shape.values <= mostValues else {
      throw .malformed(
        what: what,
        reason:
          "the page holds about \(NumberText.grouped(shape.values)) JSON values\(holding) (at most \(NumberText.grouped(mostValues)) read)"
      )
    }
    return shape
  }
}
