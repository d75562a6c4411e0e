import Foundation

/// Reading registration bodies as devices really send them, and as the tenant reads them: the
/// one reading the receiver, the judge of captures, the relay's mirror and the state dumps
/// share. The JSON is strict (`StrictJSON`: a trailing comma, `01`, text after the body are
/// refused, saying what and where), and a key an object holds twice is read by its last value
/// (`RegistrationPayload.duplicateKeys` says which). Keys are compared by their bytes, as the
/// tenant compares them: `"subscriber\u212Aey"` (KELVIN SIGN) is not `subscriberKey`, and
/// `"caf\u00e9"` and `"cafe\u0301"` are two keys, never one (`ExactKey`). One exception: the registration example
/// in the SDK documentation (seed 000) carries a raw TAB inside the `etAppId` string, which
/// strict JSON forbids, and R6.4 says that example is a valid body; so raw control characters
/// inside strings are taken.
///
/// The fast path (`PayloadScanner`) reads only bodies that are strict JSON with every key once
/// and leaves the rest to the full path here; a test holds the two to each other.
public enum WireDecoding {
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    case notJSON(String)
    case wrongShape(String)

    public var description: String {
      switch self {
      case .notJSON(let detail): "the body is not JSON: \(detail)"
      case .wrongShape(let detail): "the body is not a registration object: \(detail)"
      }
    }
  }

  /// Escapes control characters (U+0000-U+001F) that appear raw inside JSON strings. A body
  /// without any (the usual case) comes back as it is, uncopied.
  public static func escapingRawControlCharacters(_ data: Data) -> Data {
    let hex = Array("0123456789abcdef".utf8)
    // Created at the first raw control character; until then nothing is copied.
    var output: [UInt8]?
    data.withUnsafeBytes { bytes in
      var tracker = JSONStringTracker()
      for offset in 0..<bytes.count {
        let byte = bytes[offset]
        if tracker.inString && !tracker.escaped && byte < 0x20 {
          if output == nil {
            output = Array(bytes[0..<offset])
            output?.reserveCapacity(bytes.count + 16)
          }
          output?.append(contentsOf: [
            UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
            hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
          ])
          continue
        }
        _ = tracker.outside(byte)
        output?.append(byte)
      }
    }
    return output.map { Data($0) } ?? data
  }

  public static func payload(from data: Data) -> Result<RegistrationPayload, Failure> {
    if let read = data.withUnsafeBytes(PayloadScanner.payload) { return .success(read) }
    return foundationPayload(from: data)
  }

  /// The same from the bytes a server read: no `Data` made unless the scanner leaves the
  /// body to Foundation (two allocations a registration fewer).
  public static func payload(from bytes: [UInt8]) -> Result<RegistrationPayload, Failure> {
    if let read = bytes.withUnsafeBytes(PayloadScanner.payload) { return .success(read) }
    return foundationPayload(from: Data(bytes))
  }

  /// The body read the full way, the strict reading and then Foundation's decoder: what
  /// `payload(from:)` falls back to, and what the fast path is tested against.
  static func foundationPayload(from data: Data) -> Result<RegistrationPayload, Failure> {
    // Foundation's decoder keeps a key's first value, takes what strict JSON refuses, and
    // finds a key by canonical equivalence (`"subscriber\u212Aey"` as `subscriberKey`): the
    // strict reading goes first, and a body with a key twice reaches the decoder with only
    // each key's last value, and a lookalike of a name it reads blanked (the tenant compares
    // keys by their bytes and ignores it).
    let strict = data.withUnsafeBytes {
      raw -> Result<(Data, [RegistrationPayload.DuplicateKey]), Failure> in
      let bytes = raw.assumingMemoryBound(to: UInt8.self)
      switch StrictJSON.read(bytes) {
      case .failure(let problem): return .failure(.notJSON(problem.description))
      case .success(let reading) where !reading.rewrites: return .success((data, []))
      case .success(let reading):
        return .success((Data(StrictJSON.forDecoder(bytes, reading)), reading.duplicates))
      }
    }
    let read: Data
    let duplicates: [RegistrationPayload.DuplicateKey]
    switch strict {
    case .failure(let failure): return .failure(failure)
    case .success(let lastValues): (read, duplicates) = lastValues
    }
    let cleaned = escapingRawControlCharacters(read)
    do {
      var payload = try JSONDecoder().decode(RegistrationPayload.self, from: cleaned)
      if !duplicates.isEmpty { payload.duplicateKeys = duplicates }
      return .success(payload)
    } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
      if let problem = numberOutOfRange(cleaned) { return .failure(.wrongShape(problem)) }
      return .failure(.notJSON(underlyingMessage(context)))
    } catch let error as DecodingError {
      return .failure(.wrongShape(describe(error)))
    } catch {
      return .failure(.notJSON(String(describing: error)))
    }
  }

  /// Foundation's decoder calls a number too large for `Int` "not valid JSON". When the body
  /// does parse as JSON, say which field is out of range instead.
  private static func numberOutOfRange(_ data: Data) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let badge = object["badge"] as? NSNumber,
      Int(exactly: badge.doubleValue) == nil || badge.doubleValue.magnitude >= 0x1p63
    else { return nil }
    return "badge: expected a whole number from \(Int.min) to \(Int.max)"
  }

  private static func underlyingMessage(_ context: DecodingError.Context) -> String {
    if let underlying = context.underlyingError as NSError?,
      let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
    {
      return detail
    }
    return context.debugDescription
  }

  /// "`push_Enabled`: expected a boolean" rather than Foundation's nested enum dump.
  public static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { key in
        key.intValue.map { "[\($0)]" } ?? key.stringValue
      }
      return keys.isEmpty ? "the body" : keys.joined(separator: ".")
    }
    switch error {
    case .typeMismatch(let type, let context):
      return "\(path(context)): expected \(typeName(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context)): expected \(typeName(type)), found null"
    case .keyNotFound(let key, let context):
      return "\(path(context)): missing \(key.stringValue)"
    case .dataCorrupted(let context):
      return "\(path(context)): \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Bool.Type: "a boolean"
    case is String.Type: "a string"
    case is Int.Type, is Double.Type: "a number"
    case is [RegistrationPayload.Attribute].Type: "an array of {\"key\", \"value\"} objects"
    case is [String].Type: "an array of strings"
    default: "\(type)"
    }
  }
}
