import Foundation
import RegistrationCore

/// The JSON a bundle holds, walked twice: first every secret masked where its key or header
/// names it (and, with `--redact`, every contact key, device id, push token and attribute value
/// gathered), then every string rewritten with what the first walk found, so a secret or a
/// value is hidden wherever else it stands too: in a URL, a sentence, a body inside a body.
struct BundleScrub {
  /// Each secret seen, and how it is shown: `TokenText.fingerprinted`, as a capture shows it.
  private(set) var secrets: [String: String] = [:]
  /// The values `--redact` hides.
  private(set) var identifying: Set<String> = []
  let gathering: Bool

  init(redacting: Bool) { gathering = redacting }

  /// Keys whose string value is a secret, wherever they stand.
  static let secretKeys: Set<String> = [
    "access_token", "accesstoken", "refresh_token", "client_secret", "clientsecret", "password",
    "subscribertoken", "x-subscriber-token", "secret",
  ]
  /// Header names whose value is a secret (a HAR's `{"name", "value"}` pairs).
  static let secretHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-subscriber-token",
  ]
  /// Keys (and pair names) whose value names a device, its push token or its contact.
  static let identifyingKeys: Set<String> = [
    "deviceid", "device_id", "device_token", "devicetoken", "token", "devicesystemtoken",
    "systemtoken", "pushtoken", "subscriberkey", "contactkey", "contact_key",
  ]
  /// Keys whose value says what something is, never whose: left as they are by `--redact`.
  static let structuralKeys: Set<String> = [
    "platform", "sdk", "sdkversion", "profile", "severity", "code", "rule", "kind", "outcome",
    "verdict", "word", "method", "httpversion", "mimetype", "name", "etappid", "sdk_version",
    "app_version", "platform_version", "hwid", "locale", "timezone", "encoding", "status",
    "statustext", "cause", "appversion", "systemversion", "bundleid",
  ]

  static func parse(_ bytes: [UInt8]) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
  }

  /// Pretty, keys sorted, invisible characters as `\u` escapes.
  static func written(_ value: Any, pretty: Bool = true) -> [UInt8] {
    var options: JSONSerialization.WritingOptions = [
      .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed,
    ]
    if pretty { options.insert(.prettyPrinted) }
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else {
      return Array("null".utf8)
    }
    return JSONText.escapingInvisibles(Array(data))
  }

  /// A string that holds JSON (a HAR's body, a dump's stored registration), read.
  static func embedded(_ text: String) -> Any? {
    guard let first = text.utf8.first(where: { $0 > 0x20 }), first == 0x7B || first == 0x5B
    else { return nil }
    return parse(Array(text.utf8))
  }

  // MARK: The first walk

  mutating func mask(_ value: Any, fieldValues: Bool = false) -> Any {
    switch value {
    case let object as [String: Any]: return maskObject(object, fieldValues: fieldValues)
    case let array as [Any]: return array.map { mask($0, fieldValues: fieldValues) }
    case let text as String:
      guard let inner = Self.embedded(text) else { return text }
      return String(decoding: Self.written(mask(inner), pretty: false), as: UTF8.self)
    default: return value
    }
  }

  private mutating func maskObject(_ object: [String: Any], fieldValues inherited: Bool)
    -> [String: Any]
  {
    var result = object
    let kind = object["kind"] as? String
    let fieldValues = inherited || kind == "attribute" || kind == "contactKey"
    var masked: Set<String> = []
    if let name = (object["name"] as? String)?.lowercased(), let value = object["value"] as? String
    {
      if Self.secretHeaders.contains(name) {
        result["value"] = maskSecret(value, scheme: true)
        masked.insert("value")
      } else if Self.identifyingKeys.contains(name) {
        gather(value)
      }
    }
    for (key, value) in object where !masked.contains(key) {
      let lower = key.lowercased()
      if Self.secretKeys.contains(lower), let text = value as? String {
        result[key] = maskSecret(text, scheme: false)
        continue
      }
      if Self.identifyingKeys.contains(lower), let text = value as? String { gather(text) }
      if lower == "attributes" { gatherAttributes(value) }
      if fieldValues, ["value", "holds", "sent", "held"].contains(lower),
        let text = value as? String
      {
        gather(text)
      }
      result[key] = mask(value, fieldValues: fieldValues)
    }
    return result
  }

  private mutating func gather(_ value: String) {
    guard gathering, !value.isEmpty, !Self.isMasked(value) else { return }
    identifying.insert(value)
  }

  /// A device's id, redacted even where no JSON of it names it.
  mutating func gatherID(_ value: String) { gather(value) }

  private mutating func gatherAttributes(_ value: Any) {
    if let map = value as? [String: Any] {
      for case let text as String in map.values { gather(text) }
    } else if let list = value as? [Any] {
      for case let pair as [String: Any] in list {
        if let text = pair["value"] as? String { gather(text) }
      }
    }
  }

  /// Already masked by RegScope: `abcd…(24 chars)`.
  static func isMasked(_ text: String) -> Bool { text.contains("…(") && text.contains(" chars)") }

  /// A secret as RegScope shows it; `scheme`: a header's `Bearer TOKEN` keeps its scheme.
  mutating func maskSecret(_ text: String, scheme: Bool) -> String {
    guard !text.isEmpty, !Self.isMasked(text) else { return text }
    if scheme, let space = text.firstIndex(of: " ") {
      let secret = String(text[text.index(after: space)...])
      return String(text[...space]) + maskSecret(secret, scheme: false)
    }
    let shown = TokenText.fingerprinted(text)
    secrets[text] = shown
    return shown
  }

  /// A secret known by value (the app's access token).
  mutating func knowSecret(_ text: String) { _ = maskSecret(text, scheme: false) }

  // MARK: The second walk

  /// Every string rewritten by `hide` (secrets, then with `--redact` the values), but for
  /// the keys that say what something is; a body inside a string walked as JSON.
  static func rewrite(_ value: Any, key: String? = nil, _ hide: BundleHiding) -> Any {
    switch value {
    case let object as [String: Any]:
      var result: [String: Any] = [:]
      let isPair = object["value"] != nil
      for (name, inner) in object {
        let kept = name == "key" && isPair
        result[name] = kept ? inner : rewrite(inner, key: name, hide)
      }
      return result
    case let array as [Any]: return array.map { rewrite($0, key: key, hide) }
    case let text as String:
      if let key, structuralKeys.contains(key.lowercased()) { return text }
      if let inner = embedded(text) {
        return String(decoding: written(rewrite(inner, hide), pretty: false), as: UTF8.self)
      }
      return hide.text(text)
    default: return value
    }
  }
}

/// What the second walk replaces: the secrets, then (with `--redact`) the values.
struct BundleHiding: Sendable {
  var secrets = BundleReplacer()
  var values = BundleReplacer()

  func text(_ text: String) -> String { values.replacing(in: secrets.replacing(in: text)) }
  func bytes(_ bytes: [UInt8]) -> [UInt8] { values.replacing(secrets.replacing(bytes)) }
}
