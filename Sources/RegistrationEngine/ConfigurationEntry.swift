import Foundation
import RegistrationCore

/// A setting the app's file writes almost right (no `com.` prefix, another format's key):
/// the SDK or the wrapper ignores it without a word, so RegScope names the spelling it reads.
struct NearMiss {
  /// Where it is: the file, and for config.xml the line.
  var place: String
  /// "preference", "property" or "key".
  var kind: String
  /// As the file writes it (for app.json, with its JSON path).
  var written: String
  /// The spelling the reader reads.
  var right: String
  /// Who ignores it: "the Cordova plugin", "the Expo plugin", "the iOS SDK".
  var reader: String
  /// The iOS file's key it stands for; nil when it is not a registration setting.
  var iosKey: String?

  var warning: String {
    "\(place): \(kind) \"\(written)\" is ignored by \(reader) (silently): write \"\(right)\""
  }
}

/// One configuration read from any of the formats, in the iOS file's terms: its settings under
/// the iOS keys, how the file itself spelled each (so an error names what the user wrote), the
/// bundle ids it gives, and what it writes almost right.
struct ConfigurationEntry {
  var name: String
  /// Under the iOS file's keys, lowercase; values as JSON gives them (booleans as NSNumber).
  var settings: [String: Any]
  /// The file's own name for an iOS key, where it differs.
  var spelling: [String: String] = [:]
  /// The app's bundle id (iOS) or package (Android), where the file names one.
  var bundleIDs: [Platform: String] = [:]
  var nearMisses: [NearMiss] = []
  /// What else the reader noticed and the wrapper would pass over: a preference it does not read.
  var notes: [String] = []

  func shown(_ key: String) -> String { spelling[key] ?? key }

  func fail(_ key: String, _ reason: String, source: String) -> ConfigurationError {
    ConfigurationError(source: source, configuration: name, setting: shown(key), reason: reason)
  }

  func string(_ key: String, source: String) throws(ConfigurationError) -> String? {
    guard let value = settings[key] else { return nil }
    guard let text = value as? String else { throw fail(key, "must be a string", source: source) }
    return text
  }

  func flag(_ key: String, source: String) throws(ConfigurationError) -> Bool? {
    guard let value = settings[key] else { return nil }
    guard Self.isBoolean(value), let number = value as? NSNumber else {
      let quoted = (value as? String).map { ", not the string \"\($0)\"" } ?? ""
      throw fail(key, "must be true or false\(quoted)", source: source)
    }
    return number.boolValue
  }

  /// JSONSerialization gives NSNumber for both booleans and numbers; only true/false count.
  static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber, !(value is String) else { return false }
    return String(cString: number.objCType) == "c"
  }

  /// The near misses and notes as start-up warnings; a near miss that leaves a required
  /// setting unset is the error instead, since nothing could start without it.
  func warnings() throws(ConfigurationError) -> [String] {
    for miss in nearMisses {
      guard let key = miss.iosKey, ConfigurationKeys.required.contains(key), settings[key] == nil
      else { continue }
      throw ConfigurationError(
        source: miss.place, configuration: name, setting: miss.written,
        reason:
          "is ignored by \(miss.reader) (silently), so \(ConfigurationKeys.label(key)) is missing: write \"\(miss.right)\""
      )
    }
    return nearMisses.map(\.warning) + notes
  }

  /// An error from the builder, naming the setting as this file spells it.
  func respelled(_ error: ConfigurationError) -> ConfigurationError {
    var error = error
    if let setting = error.setting { error.setting = shown(setting) }
    return error
  }
}

extension ConfigurationEntry {
  /// The configurations a file holds, whatever its format: a Cordova config.xml (it starts
  /// with `<`), an Expo app.json (an object with `expo`), or the iOS SDK's array.
  static func read(_ data: Data, source: String) throws(ConfigurationError) -> [ConfigurationEntry]
  {
    func fail(_ reason: String) -> ConfigurationError {
      ConfigurationError(source: source, configuration: nil, setting: nil, reason: reason)
    }
    if CordovaConfigFile.looksLikeXML(data) {
      return try CordovaConfigFile.entries(data, source: source)
    }
    if let encoding = CordovaDocument.wideXMLEncoding(data) {
      throw fail(
        "is XML in \(encoding); a Cordova config.xml is read as UTF-8 only: save it as UTF-8")
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw fail("is not valid JSON: \(JSONErrorLocation.describe(error, in: data))")
    }
    if let root = object as? [String: Any], root["expo"] != nil {
      return try ExpoConfigFile.entries(root, source: source)
    }
    guard let array = object as? [Any] else {
      throw fail(
        "must hold a JSON array of named configurations, [{\"name\": ...}, ...] (the iOS SDK's file), or be a Cordova config.xml or an Expo app.json ({\"expo\": {\"plugins\": ...}})"
      )
    }
    return try iosEntries(array, source: source)
  }

  /// The iOS SDK's `MarketingCloudSDKConfiguration.json`: keys matched case-insensitively.
  private static func iosEntries(_ array: [Any], source: String) throws(ConfigurationError)
    -> [ConfigurationEntry]
  {
    var seen: Set<String> = []
    var result: [ConfigurationEntry] = []
    for (index, element) in array.enumerated() {
      guard let raw = element as? [String: Any] else {
        throw ConfigurationError(
          source: source, configuration: nil, setting: nil,
          reason: "entry \(index + 1) is not a JSON object")
      }
      let settings = Dictionary(raw.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
      guard let name = settings["name"] as? String, !InputRules.trimmed(name).isEmpty else {
        throw ConfigurationError(
          source: source, configuration: "entry \(index + 1)", setting: "name",
          reason: "is missing or not a non-empty string")
      }
      guard seen.insert(name).inserted else {
        throw ConfigurationError(
          source: source, configuration: name, setting: "name",
          reason: "appears more than once")
      }
      var entry = ConfigurationEntry(name: name, settings: settings)
      // The iOS SDK's own key first; RegScope's earlier spellings stay as aliases.
      if settings["marketing_cloud_server_url"] == nil,
        let alias = settings["marketingcloudserverurl"] ?? settings["serverurl"]
      {
        entry.settings["marketing_cloud_server_url"] = alias
      }
      for key in raw.keys.sorted() where !ConfigurationKeys.iosFileKeys.contains(key.lowercased()) {
        guard let meant = ConfigurationKeys.nearest(key), let right = meant.ios else { continue }
        entry.nearMisses.append(
          NearMiss(
            place: source, kind: "key", written: key, right: right, reader: "the iOS SDK",
            iosKey: right))
      }
      result.append(entry)
    }
    return result
  }
}
