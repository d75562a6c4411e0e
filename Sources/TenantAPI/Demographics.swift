import Foundation
import RegistrationCore

/// An attribute set as `GET /contacts/v1/attributeSetDefinitions` describes it: its key, its
/// name, and its attributes' names.
public struct AttributeSetDefinition: Sendable, Decodable {
  public struct Name: Sendable, Decodable { public var value: String? }
  public struct Attribute: Sendable, Decodable {
    public var key: String?
    public var name: Name?

    /// The name Contact Builder shows, which a registration's attribute must match.
    public var shown: String? { name?.value ?? key }
  }

  public var id: String?
  public var key: String?
  public var name: Name?
  public var attributes: [Attribute]?

  public var shown: String { name?.value ?? key ?? id ?? "(unnamed)" }

  /// The set MobilePush processing checks attribute names against.
  public var isMobilePushDemographics: Bool {
    let wanted = "mobilepushdemographics"
    return [name?.value, key].contains { $0.map(Self.folded) == wanted }
  }

  private static func folded(_ text: String) -> String {
    text.lowercased().filter { !$0.isWhitespace }
  }
}

/// One page of the definitions. Its numbers are read as JSON numbers, then as whole ones: a
/// `count` of 1.5 is said as such, not as "not JSON".
struct AttributeSetPage: Decodable {
  var page: Int?
  var pageSize: Int?
  var count: Int?
  var items: [AttributeSetDefinition]

  enum CodingKeys: String, CodingKey { case page, pageSize, count, items }

  /// A number in the answer that is not a whole one (or none an Int holds).
  struct NotWhole: Error, CustomStringConvertible {
    var field: String
    var value: Double
    var description: String {
      value.rounded() == value
        ? "\(field) is out of range (\(value))" : "\(field) is not a whole number (\(value))"
    }
  }

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: CodingKeys.self)
    func whole(_ key: CodingKeys) throws -> Int? {
      guard let number = try fields.decodeIfPresent(Double.self, forKey: key) else { return nil }
      guard let value = Int(exactly: number) else {
        throw NotWhole(field: key.stringValue, value: number)
      }
      return value
    }
    page = try whole(.page)
    pageSize = try whole(.pageSize)
    count = try whole(.count)
    items = try fields.decode([AttributeSetDefinition].self, forKey: .items)
  }
}

/// The tenant's MobilePush Demographics attribute set: the names processing accepts.
public struct TenantDemographics: Sendable, Equatable {
  public var setName: String
  public var attributes: [String]

  public init(setName: String, attributes: [String]) {
    self.setName = setName
    self.attributes = attributes
  }
}

extension TenantClient {
  /// Asked a page at a time.
  static let pageSize = 50
  /// A tenant whose pages never end is not read past this many (the exchange's deadline
  /// usually ends it first).
  static let mostPages = 200
  /// Attribute sets kept at most, whatever the pages hold: a tenant's few dozen, with room.
  static let mostSets = 5_000
  /// JSON objects a page may hold: 50 sets of a thousand attributes each, twice over. A page
  /// of millions of empty items is refused before it is decoded, not held in memory.
  static let mostObjectsAPage = 100_000

  /// Every attribute set's definition, page by page (`$page`, `$pageSize`) until the answer's
  /// `count` is reached or a page comes back short; with what was left unread when the pages
  /// ran past `mostPages` (what was not read is said, never taken for absent).
  public func attributeSetDefinitions() async throws(TenantFailure)
    -> (sets: [AttributeSetDefinition], notRead: String?)
  {
    var all: [AttributeSetDefinition] = []
    let until = exchangeEnds()
    for page in 1...Self.mostPages {
      let path = "/contacts/v1/attributeSetDefinitions?$page=\(page)&$pageSize=\(Self.pageSize)"
      let what = "GET /contacts/v1/attributeSetDefinitions (page \(page))"
      let body = try await get(path, what: what, until: until)
      let shape = try AnswerShape.read(
        body, what: what, holding: ", more than \(Self.pageSize) attribute sets could")
      guard shape.objects <= Self.mostObjectsAPage else {
        throw .malformed(
          what: what,
          reason:
            "the page holds \(NumberText.grouped(shape.objects)) JSON objects, more than \(Self.pageSize) attribute sets could (at most \(NumberText.grouped(Self.mostObjectsAPage)) read)"
        )
      }
      let decoded: AttributeSetPage
      do {
        decoded = try JSONDecoder().decode(AttributeSetPage.self, from: Data(body))
      } catch {
        throw .malformed(what: what, reason: Self.decodingReason(error))
      }
      all += decoded.items
      guard all.count <= Self.mostSets else {
        throw .malformed(
          what: what,
          reason: "more than \(NumberText.grouped(Self.mostSets)) attribute sets: not read further")
      }
      let ended =
        decoded.count.map { all.count >= $0 } ?? (decoded.items.count < Self.pageSize)
      // The set is what a caller reads: pages past it would spend the tenant's API quota.
      if decoded.items.isEmpty || ended || all.contains(where: \.isMobilePushDemographics) {
        return (all, nil)
      }
      if page == Self.mostPages {
        let counted =
          decoded.count.map { " of the \(NumberText.grouped($0)) the tenant counts" } ?? ""
        return (
          all,
          "RegScope read \(NumberText.grouped(all.count)) attribute sets (\(Self.mostPages) pages)\(counted) and no further"
        )
      }
    }
    return (all, nil)
  }

  /// The MobilePush Demographics set's attribute names, or why not.
  public func demographics() async throws(TenantFailure) -> TenantDemographics {
    let (sets, notRead) = try await attributeSetDefinitions()
    guard let set = sets.first(where: \.isMobilePushDemographics) else {
      if let notRead {
        throw .notAllRead(
          what: "GET /contacts/v1/attributeSetDefinitions",
          looked: "the MobilePush Demographics set", notRead: notRead)
      }
      throw .noDemographicsSet(seen: sets.map(\.shown))
    }
    let names = (set.attributes ?? []).compactMap(\.shown).filter { !$0.isEmpty }
    return TenantDemographics(setName: set.shown, attributes: names)
  }

  static func decodingReason(_ error: any Error) -> String {
    switch error {
    case let notWhole as AttributeSetPage.NotWhole:
      return notWhole.description
    case DecodingError.keyNotFound(let key, let context):
      return "no \(path(context.codingPath + [key]))"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\(path(context.codingPath)) is not of the documented type"
    case DecodingError.dataCorrupted(let context):
      return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is unreadable"
    default:
      return "not JSON"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
      .trimmingPrefix(".").description
  }
}
