import Foundation

/// One address the Contacts API's address search answers (`addresses[]`): the contact it
/// belongs to, its type (9 is PUSH), its key (for a push address, the device id), status,
/// modified date, and the attribute values of its `valueSets` RegScope could read.
public struct TenantAddress: Sendable, Equatable {
  public var contactKey: String?
  public var addressTypeID: Int?
  public var addressKey: String?
  public var status: String?
  public var modifiedDate: String?
  /// Nil when `valueSets` is absent or in none of the shapes `values(from:)` reads.
  public var values: [String: String]?

  /// Push (MobilePush) addresses are type 9.
  public static let pushType = 9

  public var isPush: Bool { addressTypeID == Self.pushType }
}

extension TenantClient {
  /// The search route and its body: the contact's addresses by its contact key.
  static let addressSearchPath = "/contacts/v1/addresses/search/ContactKey"

  /// Every address the tenant holds for `contactKey` (`POST /contacts/v1/addresses/search/
  /// ContactKey`, docs/tenant.md). Through `rest`: the same token, 401 and 429 handling as
  /// the demographics.
  public func addresses(contactKey: String) async throws(TenantFailure) -> [TenantAddress] {
    let what = "POST \(Self.addressSearchPath)"
    let request: [String: Any] = [
      "filterConditionOperator": "Is", "filterConditionValue": contactKey,
    ]
    let body = Array((try? JSONSerialization.data(withJSONObject: request)) ?? Data())
    let answer = try await rest(Self.addressSearchPath, body: body, what: what)
    return try Self.addresses(from: answer, what: what)
  }

  static func addresses(from body: [UInt8], what: String) throws(TenantFailure) -> [TenantAddress] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
      throw .malformed(what: what, reason: "not a JSON object")
    }
    guard let list = object["addresses"] as? [Any] else {
      throw .malformed(what: what, reason: "no addresses array")
    }
    return list.compactMap { $0 as? [String: Any] }.map { item in
      TenantAddress(
        contactKey: text(item["contactKey"]), addressTypeID: number(item["addressTypeID"]),
        addressKey: text(item["addressKey"]), status: text(item["status"]),
        modifiedDate: text(item["modifiedDate"]), values: values(from: item["valueSets"]))
    }
  }

  /// The attribute values of `valueSets`, whose inner shape the documentation does not give:
  /// a list of sets each with `values: [{name, value}]`, a list of `{name, value}`, or an
  /// object of names to values; a name may come as `name`, `definitionName`, `definitionKey`
  /// or `key`, a value as `value` or `innerValue`. Anything else reads as nil: not read, never
  /// "not held".
  static func values(from valueSets: Any?) -> [String: String]? {
    var found: [String: String] = [:]
    func pair(_ entry: [String: Any]) {
      let name = ["name", "definitionName", "definitionKey", "key"].lazy
        .compactMap { text(entry[$0]) }.first
      let value = ["value", "innerValue"].lazy.compactMap { text(entry[$0]) }.first
      if let name, let value { found[name] = value }
    }
    switch valueSets {
    case let sets as [Any]:
      for case let set as [String: Any] in sets {
        if let values = set["values"] as? [Any] {
          for case let entry as [String: Any] in values { pair(entry) }
        } else {
          pair(set)
        }
      }
    case let map as [String: Any]:
      for (name, value) in map { if let value = text(value) { found[name] = value } }
    default:
      return nil
    }
    return found.isEmpty ? nil : found
  }

  /// A JSON string, number or boolean as text (a tenant may keep a number as one).
  private static func text(_ value: Any?) -> String? {
    switch value {
    case let string as String: return string
    case let number as NSNumber:
      // A JSON boolean comes as an NSNumber of type "c" (as the configuration reader tells).
      if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
      return number.stringValue
    default: return nil
    }
  }

  private static func number(_ value: Any?) -> Int? {
    switch value {
    case let number as NSNumber where String(cString: number.objCType) != "c":
      let double = number.doubleValue
      return double.isFinite && abs(double) < 1e15 ? Int(double) : nil
    case let string as String: return Int(string.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }
}
