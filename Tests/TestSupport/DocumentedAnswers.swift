import Foundation

/// The tenant's answers as Salesforce's reference pages give them (`Tests/Fixtures/documented`,
/// whose README cites each page): the fixtures every reader of the tenant is held to.
public enum DocumentedAnswers {
  public static let addressSearch = "address-search-by-contact-key.json"
  public static let token = "token.json"
  public static let tokenInvalidClient = "token-invalid-client.json"
  public static let rateLimited = "rate-limited-429.json"
  public static let attributeSetDefinitions = "attribute-set-definitions.json"

  /// The documented push address's device id and contact key in `addressSearch`.
  public static let searchDeviceID = "5C5A1B2E-7E4F-4D1C-9B0A-3F2E1D0C9B8A"
  public static let searchContactKey = "user-1"

  /// The folder, found from this source file.
  public static var folder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/documented")
  }

  /// A fixture's bytes as stored.
  public static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: folder.appendingPathComponent(name)))
  }

  /// A fixture parsed as a JSON object.
  public static func object(_ name: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(bytes(name))) as? [String: Any]
    else { throw CocoaError(.fileReadCorruptFile) }
    return object
  }
}
