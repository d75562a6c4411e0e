import RegistrationCore

/// What processing refuses after the 201 (S5, S6), as one set of functions: processing
/// applies them, and the judge asks them whether the server will accept what an app sent.
public enum ProcessingRules {
  public enum Refusal: Hashable, Sendable {
    /// S6: the device is marked inactive.
    case malformed(String)
    /// S5: the whole registration is rejected; the device stays as it was.
    case undefinedAttributes([String])

    public var reason: String {
      switch self {
      case .malformed(let problem): return problem
      case .undefinedAttributes(let names):
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return
          "attribute\(names.count == 1 ? "" : "s") \(quoted) not defined in the demographics table"
      }
    }
  }

  public static func refusal(_ payload: RegistrationPayload, definedAttributes: Set<String>?)
    -> Refusal?
  {
    if let problem = malformation(payload) { return .malformed(problem) }
    let undefined = undefinedAttributes(payload, defined: definedAttributes)
    return undefined.isEmpty ? nil : .undefinedAttributes(undefined)
  }

  /// S5: attribute names are matched against the table case-insensitively, as the server
  /// matches its columns. Nil `defined` is the starting table that accepts every name.
  public static func undefinedAttributes(
    _ payload: RegistrationPayload, defined: Set<String>?
  ) -> [String] {
    guard let defined else { return [] }
    let known = Set(defined.map { $0.lowercased() })
    return (payload.attributes ?? []).map(\.key).filter { !known.contains($0.lowercased()) }
  }

  /// The longest attribute value a device keeps, in bytes: the server holds thousands of
  /// devices, and one app sending 100 KB values must not make it hold gigabytes.
  public static let keptValueBytes = 4 << 10

  /// An attribute value as the server keeps it: whole, or its first `keptValueBytes`, how long
  /// it was and a fingerprint of the whole, so two long values that differ only past the cut
  /// still differ (a change is never taken for a resend). Cutting a cut value changes nothing.
  public static func kept(_ value: String) -> String {
    guard value.utf8.count > keptValueBytes, !isKept(value) else { return value }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in value.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(decoding: value.utf8.prefix(keptValueBytes), as: UTF8.self)
      + "… (\(value.utf8.count) bytes; the first \(keptValueBytes) kept; \(String(hash, radix: 16)))"
  }

  static func isKept(_ value: String) -> Bool {
    value.hasSuffix(")") && value.contains("kept; ")
      && value.utf8.count < keptValueBytes + 80
  }

  /// The payload with every attribute value cut as the server keeps it: what it holds from
  /// the moment a registration is received, so a burst of large values costs no memory.
  public static func kept(_ payload: RegistrationPayload) -> RegistrationPayload {
    guard
      let attributes = payload.attributes,
      attributes.contains(where: { $0.value.utf8.count > keptValueBytes })
    else { return payload }
    var cut = payload
    cut.attributes = attributes.map { .init(key: $0.key, value: kept($0.value)) }
    return cut
  }

  /// About how many bytes a body takes in memory: its strings, and a little for the rest.
  public static func keptSize(_ payload: RegistrationPayload) -> Int {
    let attributes = (payload.attributes ?? []).reduce(0) {
      $0 + $1.key.utf8.count + $1.value.utf8.count + 32
    }
    let tags = (payload.tags ?? []).reduce(0) { $0 + $1.utf8.count + 16 }
    // Summed one by one, not through a list of them: a list was an allocation a
    // registration.
    func size(_ field: String?) -> Int { field?.utf8.count ?? 0 }
    let fields =
      size(payload.deviceID) + size(payload.deviceToken) + size(payload.subscriberKey)
      + size(payload.etAppId) + size(payload.hwid) + size(payload.signedString)
    return 512 + attributes + tags + fields
  }

  /// S3: the contact key a registration names, trimmed; nil when it names none, and the
  /// server keeps the device's contact or makes one up.
  public static func contactKey(_ payload: RegistrationPayload) -> String? {
    guard let key = payload.subscriberKey.map(InputRules.trimmed), !key.isEmpty else {
      return nil
    }
    return key
  }

  /// S6: what makes a registration malformed. `iPadOS` is iOS (the iOS SDK writes it on an
  /// iPad), so such a device is not rejected.
  public static func malformation(_ payload: RegistrationPayload) -> String? {
    if let key = payload.subscriberKey, InputRules.trimmed(key).count > 100 {
      return "subscriberKey is \(InputRules.trimmed(key).count) characters; at most 100 are allowed"
    }
    if let platform = payload.platform, Platform(wireName: platform) == nil {
      return "platform \"\(platform)\" is neither \"iOS\" (or \"iPadOS\") nor \"Android\""
    }
    return nil
  }
}
