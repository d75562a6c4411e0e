import Foundation
import RegistrationCore

/// One address the Contacts API's address search answers (`addresses[]`): the contact it
/// belongs to, its type (9 is PUSH), its key (for a push address, the device id), status,
/// modified date, and the attribute values of its `valueSets` RegScope could read. Each
/// identifier is read plain (`"addressKey": "X"`) or wrapped as the reference page gives it
/// (`"addressKey": {"value": "X"}`); what could not be read is kept in `unread`, never taken
/// for absent.
public struct TenantAddress: Sendable, Equatable {
  public var contactKey: String?
  public var addressTypeID: Int?
  public var addressKey: String?
  /// The address's validity as the tenant keeps it (Active, Inactive, ...): never its opt-in.
  public var status: String?
  public var modifiedDate: String?
  /// The values read, by attribute name. Nil when `valueSets` is absent or in none of the
  /// shapes `values(from:)` reads.
  public var values: [String: String]?
  /// The parts of `valueSets` that could not be read, with what came: a name missing from
  /// `values` may be among them, so it is not read, never "not held".
  public var unreadValues: [String] = []
  /// The identifiers that came in a shape RegScope does not read (`addressKey: [1]`), or did
  /// not come: whether this address is the device's cannot be said from them.
  public var unread: [String] = []

  /// Push (MobilePush) addresses are type 9.
  public static let pushType = 9

  public var isPush: Bool { addressTypeID == Self.pushType }

  public init(
    contactKey: String? = nil, addressTypeID: Int? = nil, addressKey: String? = nil,
    status: String? = nil, modifiedDate: String? = nil, values: [String: String]? = nil,
    unreadValues: [String] = [], unread: [String] = []
  ) {
    self.contactKey = contactKey
    self.addressTypeID = addressTypeID
    self.addressKey = addressKey
    self.status = status
    self.modifiedDate = modifiedDate
    self.values = values
    self.unreadValues = unreadValues
    self.unread = unread
  }
}

/// What an address search came to: every address read from every page followed, and what of
/// the answer itself could not be read (an item that is no object, pages not followed).
public struct AddressSearchAnswer: Sendable, Equatable {
  public var addresses: [TenantAddress]
  public var unread: [String]

  public init(addresses: [TenantAddress] = [], unread: [String] = []) {
    self.addresses = addresses
    self.unread = unread
  }

  /// The device's push address under `contactKey`: found; absent only when every address
  /// that could be the device's was read and none is; else not read, with what was not.
  public func pushAddress(of deviceID: String, under contactKey: String) -> PushAddressFinding {
    let device = deviceID.lowercased()
    // An address another readable contact key or another readable type rules out is not
    // this device's; one whose contact key or type could not be read still may be.
    let candidates = addresses.filter { address in
      (address.addressTypeID.map { $0 == TenantAddress.pushType } ?? true)
        && (address.contactKey.map { $0 == contactKey } ?? true)
    }
    let mine = candidates.firstIndex { $0.addressKey?.lowercased() == device }
    let others = candidates.count - (mine == nil ? 0 : 1)
    if let mine { return .found(candidates[mine], others: others) }
    let unreadable = candidates.filter { $0.addressKey == nil }.flatMap(\.unread)
    let why = unread + unreadable
    if !why.isEmpty { return .notRead(why, others: others) }
    return .absent(others: others)
  }

  /// True when the device's push address is among those read: no further page is needed.
  func holds(_ deviceID: String, under contactKey: String) -> Bool {
    if case .found = pushAddress(of: deviceID, under: contactKey) { return true }
    return false
  }
}

/// The device's push address in an address search's answer.
public enum PushAddressFinding: Sendable, Equatable {
  case found(TenantAddress, others: Int)
  /// Every address that could be the device's was read, and none is.
  case absent(others: Int)
  /// Part of the answer that could hold the device's address could not be read: what, each
  /// with a short escaped excerpt of what came. Never said as "not there".
  case notRead([String], others: Int)
}

extension TenantClient {
  /// The search route and its body: the contact's addresses by its contact key.
  static let addressSearchPath = "/contacts/v1/addresses/search/ContactKey"
  /// Pages of addresses followed at most; past them, what is left is not read.
  static let mostAddressPages = 10
  /// Addresses kept at most from one search, whatever its pages hold.
  static let mostAddresses = 10_000

  /// Every address the tenant holds for `contactKey` (`POST /contacts/v1/addresses/search/
  /// ContactKey`, docs/tenant.md), page after page (`$page`, `$pageSize`, as the Contacts
  /// API pages its collections) while the answer says more are left, bounded; stopped early
  /// once `deviceID`'s push address is read. Through `rest`: the same token, 401 and 429
  /// handling as the demographics.
  public func addresses(contactKey: String, lookingFor deviceID: String? = nil)
    async throws(TenantFailure) -> AddressSearchAnswer
  {
    let request: [String: Any] = [
      "filterConditionOperator": "Is", "filterConditionValue": contactKey,
    ]
    let body = Array((try? JSONSerialization.data(withJSONObject: request)) ?? Data())
    var all = AddressSearchAnswer()
    var pageSize = Self.pageSize
    let until = exchangeEnds()
    for page in 1...Self.mostAddressPages {
      let path =
        page == 1
        ? Self.addressSearchPath : Self.addressSearchPath + "?$page=\(page)&$pageSize=\(pageSize)"
      let what = "POST \(Self.addressSearchPath)" + (page == 1 ? "" : " (page \(page))")
      let answer = try await rest(path, body: body, what: what, until: until)
      let read = try Self.addressPage(from: answer, what: what)
      all.addresses += read.addresses.prefix(Self.mostAddresses - all.addresses.count)
      all.unread += read.unread
      if let deviceID, all.holds(deviceID, under: contactKey) { break }
      guard let more = read.more(after: all.addresses.count, asked: page) else { break }
      if let refused = more.refusal {
        all.unread.append(refused)
        break
      }
      if all.addresses.count >= Self.mostAddresses {
        all.unread.append(
          "addresses past the first \(NumberText.grouped(Self.mostAddresses)) (not read)")
        break
      }
      if page == Self.mostAddressPages {
        all.unread.append(
          "pages past \(Self.mostAddressPages) (the tenant said \(more.said); not read)")
        break
      }
      pageSize = read.pageSize ?? pageSize
    }
    return all
  }

  /// One page of the search's answer.
  struct AddressPage {
    var addresses: [TenantAddress]
    var unread: [String]
    var pageNumber: Int?
    var pageSize: Int?
    /// The whole count the answer gives (`count`, `totalCount` or `total`), when it gives one.
    var total: Int?

    /// Whether another page is left after `read` addresses, and how the answer said so; a
    /// refusal when the answer contradicts the asking (page 1 answered for page 2).
    func more(after read: Int, asked page: Int) -> (said: String, refusal: String?)? {
      if let number = pageNumber, number != page {
        return (
          "page \(number)",
          "asked for page \(page), the tenant answered page \(number): the pages after it not read"
        )
      }
      if let total {
        guard read < total else { return nil }
        if addresses.isEmpty {
          return (
            "\(total) addresses",
            "the tenant said \(NumberText.grouped(total)) addresses and answered \(NumberText.grouped(read)): the rest not read"
          )
        }
        return ("\(NumberText.grouped(total)) addresses", nil)
      }
      if let pageSize, pageSize > 0, addresses.count >= pageSize {
        return ("a full page of \(pageSize)", nil)
      }
      return nil
    }
  }

  static func addresses(from body: [UInt8], what: String) throws(TenantFailure)
    -> AddressSearchAnswer
  {
    let page = try addressPage(from: body, what: what)
    return AddressSearchAnswer(addresses: page.addresses, unread: page.unread)
  }

  static func addressPage(from body: [UInt8], what: String) throws(TenantFailure) -> AddressPage {
    _ = try AnswerShape.read(body, what: what)
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
      throw .malformed(what: what, reason: "not a JSON object")
    }
    guard let list = object["addresses"] as? [Any] else {
      throw .malformed(what: what, reason: "no addresses array")
    }
    var page = AddressPage(
      addresses: [], unread: [], pageNumber: number(object["pageNumber"] ?? object["page"]),
      pageSize: number(object["pageSize"]),
      total: number(object["count"] ?? object["totalCount"] ?? object["total"]))
    for (index, element) in list.enumerated() {
      guard let item = element as? [String: Any] else {
        page.unread.append("addresses[\(index)] \(excerpt(element))")
        continue
      }
      page.addresses.append(address(from: item))
    }
    return page
  }

  /// One address: each identifier plain or wrapped, what could not be read said with an
  /// excerpt.
  static func address(from item: [String: Any]) -> TenantAddress {
    var address = TenantAddress()
    func read<T>(_ name: String, _ reader: (Any?) -> T?) -> T? {
      let raw = item[name]
      if let value = reader(raw) { return value }
      address.unread.append(raw == nil ? "no \(name)" : "\(name) \(excerpt(raw))")
      return nil
    }
    address.contactKey = read("contactKey", text)
    address.addressTypeID = read("addressTypeID", number)
    address.addressKey = read("addressKey", text)
    address.status = text(item["status"])
    address.modifiedDate = text(item["modifiedDate"])
    let values = values(from: item["valueSets"])
    address.values = values.values
    address.unreadValues = values.unread
    // The address's own key is all that says whose it is: its unread parts are named by it.
    if let key = address.addressKey, !address.unread.isEmpty {
      address.unread = address.unread.map { "\($0) (address \(clipped(key)))" }
    }
    return address
  }

  /// The attribute values of `valueSets`. The reference page's shape: a list of sets, each
  /// with `definitionID`, `definitionKey` and `values[]` of `{definitionKey, innerValue}`
  /// (integrators read `values[definitionKey=X].innerValue`). Read besides: a value's name as
  /// `name`, `definitionName` or `key`, its value as `value`; a list of `{name, value}`; an
  /// object of names to values; any of them wrapped as `{"value": ...}`. A JSON null is no
  /// value held. What is in none of these shapes is in `unread`, with an excerpt; `values`
  /// is nil when nothing could be read.
  static func values(from valueSets: Any?) -> (values: [String: String]?, unread: [String]) {
    var found: [String: String] = [:]
    var unread: [String] = []
    /// One `{name, value}` entry; false when it is none.
    func pair(_ entry: [String: Any]) -> Bool {
      let name = ["definitionKey", "name", "definitionName", "key"].lazy
        .compactMap { text(entry[$0]) }.first
      let rawValue = ["innerValue", "value"].lazy.compactMap { entry[$0] }.first
      guard let name, let rawValue else { return false }
      if unwrapped(rawValue) is NSNull { return true }
      guard let value = text(rawValue) else { return false }
      if found[name] == nil { found[name] = value }
      return true
    }
    // One set given as an object rather than a list of one.
    var valueSets = valueSets
    if let single = valueSets as? [String: Any], single["values"] is [Any] { valueSets = [single] }
    switch valueSets {
    case let sets as [Any]:
      for (index, element) in sets.enumerated() {
        guard let set = element as? [String: Any] else {
          unread.append("valueSets[\(index)] \(excerpt(element))")
          continue
        }
        if let values = set["values"] as? [Any] {
          for (inner, entry) in values.enumerated() {
            guard let entry = entry as? [String: Any], pair(entry) else {
              unread.append("valueSets[\(index)].values[\(inner)] \(excerpt(entry))")
              continue
            }
          }
        } else if !pair(set) {
          unread.append("valueSets[\(index)] \(excerpt(set))")
        }
      }
    case let map as [String: Any]:
      for (name, raw) in map.sorted(by: { $0.key < $1.key }) {
        if unwrapped(raw) is NSNull { continue }
        if let value = text(raw) {
          found[name] = value
        } else {
          unread.append("valueSets.\(clipped(name)) \(excerpt(raw))")
        }
      }
    case nil:
      unread.append("no valueSets")
    default:
      unread.append("valueSets \(excerpt(valueSets))")
    }
    return (found.isEmpty && !unread.isEmpty ? nil : found, unread)
  }

  /// `{"value": X}` as X (the reference page wraps identifiers so), at most a few levels.
  private static func unwrapped(_ value: Any?) -> Any? {
    var value = value
    for _ in 0..<4 {
      guard let object = value as? [String: Any], object.count == 1, let inner = object["value"]
      else { break }
      value = inner
    }
    return value
  }

  /// A JSON string, number or boolean as text (a tenant may keep a number as one), plain or
  /// wrapped.
  static func text(_ value: Any?) -> String? {
    switch unwrapped(value) {
    case let string as String: return string
    case let number as NSNumber:
      // A JSON boolean comes as an NSNumber of type "c" (as the configuration reader tells).
      if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
      return number.stringValue
    default: return nil
    }
  }

  /// A whole number in range, plain, as decimal digits in a string, or wrapped.
  static func number(_ value: Any?) -> Int? {
    switch unwrapped(value) {
    case let number as NSNumber where String(cString: number.objCType) != "c":
      let double = number.doubleValue
      guard double.isFinite, abs(double) < 1e15, double.rounded() == double else { return nil }
      return Int(double)
    case let string as String:
      let digits = string.trimmingCharacters(in: .whitespaces)
      guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }), digits.count < 16
      else { return nil }
      return Int(digits)
    default: return nil
    }
  }

  /// What came, in a few escaped characters: for saying what could not be read.
  static func excerpt(_ value: Any?) -> String {
    guard let value else { return "(nothing)" }
    let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    return clipped(data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)")
  }

  /// At most 60 characters, escaped.
  static func clipped(_ text: String) -> String {
    TerminalText.escaped(text.count > 60 ? String(text.prefix(60)) + "…" : text)
  }
}
