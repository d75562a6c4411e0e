/// The contact record kept on the device, the source of truth (R1). Replication is one way:
/// nothing here is ever written from a server answer (R1.3).
public struct ContactRecord: Hashable, Sendable, Codable {
  /// `subscriberKey` on the wire. Once set it can change but never be cleared (R2.3).
  public var contactKey: String?
  public var attributes: [String: String]
  /// Tags the app added. The SDK's own tags are derived, never stored (R2.7).
  public var tags: Set<String>
  /// Attributes cleared since the last acknowledged send: each goes out once with an empty
  /// value so the server clears it too (R2.6), then is forgotten.
  public var clearedAttributes: Set<String>
  public var device: DeviceFields

  public init(
    contactKey: String? = nil, attributes: [String: String] = [:], tags: Set<String> = [],
    clearedAttributes: Set<String> = [], device: DeviceFields
  ) {
    self.contactKey = contactKey
    self.attributes = attributes
    self.tags = tags
    self.clearedAttributes = clearedAttributes
    self.device = device
  }
}
