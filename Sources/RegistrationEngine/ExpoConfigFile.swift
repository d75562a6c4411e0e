import Foundation
import RegistrationCore

/// An Expo app's `app.json`, read as the community plugin (`@allboatsrise/expo-marketingcloudsdk`
/// on npm) reads it: `{"expo": {"plugins": [["@allboatsrise/expo-marketingcloudsdk", {"appId":
/// ..., "accessToken": ..., "serverUrl": ...}]]}}`. Any plugin entry whose name contains
/// "marketingcloudsdk" counts (forks publish under other names). The properties are
/// JavaScript's, so case matters: a property spelled otherwise is ignored without a word, and is
/// named with the right spelling. One configuration, `expo`; the bundle ids come from
/// `expo.ios.bundleIdentifier` and `expo.android.package`.
enum ExpoConfigFile {
  static let reader = "the Expo plugin"
  static let configurationName = "expo"

  static func entries(_ root: [String: Any], source: String) throws(ConfigurationError)
    -> [ConfigurationEntry]
  {
    func fail(_ reason: String) -> ConfigurationError {
      ConfigurationError(source: source, configuration: nil, setting: nil, reason: reason)
    }
    guard let expo = root["expo"] as? [String: Any] else {
      throw fail("\"expo\" must be a JSON object (an Expo app.json)")
    }
    let example =
      "[\"@allboatsrise/expo-marketingcloudsdk\", {\"appId\": ..., \"accessToken\": ..., \"serverUrl\": ...}]"
    guard let plugins = expo["plugins"] as? [Any] else {
      throw fail("has no expo.plugins list, so no Marketing Cloud plugin: add \(example)")
    }
    guard let index = plugins.firstIndex(where: { isMarketingCloud($0) }) else {
      throw fail(
        "expo.plugins has no Marketing Cloud plugin (an entry whose name contains \"marketingcloudsdk\"): add \(example)"
      )
    }
    let path = "expo.plugins[\(index)][1]"
    var options: [String: Any] = [:]
    if let list = plugins[index] as? [Any], list.count > 1 {
      guard let given = list[1] as? [String: Any] else {
        throw fail("\(path) must be a JSON object of the plugin's properties")
      }
      options = given
    }
    var entry = ConfigurationEntry(name: configurationName, settings: [:])
    for spelling in ConfigurationKeys.all {
      guard let ios = spelling.ios, let property = spelling.expo else { continue }
      entry.spelling[ios] = "\(path).\(property)"
    }
    // Sorted, so the warnings come in the same order every time.
    for (key, value) in options.sorted(by: { $0.key < $1.key }) {
      try read(key, value, into: &entry, path: path, source: source)
    }
    if let id = (expo["ios"] as? [String: Any])?["bundleIdentifier"] as? String {
      entry.bundleIDs[.iOS] = id
    }
    if let id = (expo["android"] as? [String: Any])?["package"] as? String {
      entry.bundleIDs[.android] = id
    }
    return [entry]
  }

  /// `"name"` or `["name", {...}]`, the name containing "marketingcloudsdk" in any case.
  static func isMarketingCloud(_ plugin: Any) -> Bool {
    let name = (plugin as? String) ?? ((plugin as? [Any])?.first as? String)
    return name?.lowercased().contains("marketingcloudsdk") == true
  }

  private static func read(
    _ key: String, _ value: Any, into entry: inout ConfigurationEntry, path: String,
    source: String
  ) throws(ConfigurationError) {
    let shown = "\(path).\(key)"
    guard let spelling = ConfigurationKeys.expo(key) else {
      if let meant = ConfigurationKeys.nearest(key), let right = meant.expo {
        entry.nearMisses.append(
          NearMiss(
            place: source, kind: "property", written: shown, right: right, reader: reader,
            iosKey: meant.ios))
      } else {
        entry.notes.append("\(source): property \"\(shown)\" is not one \(reader) reads")
      }
      return
    }
    // The plugin writes `props.x ? 'true' : 'false'` on Android: a string, "false" too, is
    // true there, so only a JSON boolean means what it says.
    if spelling.isBoolean && !ConfigurationEntry.isBoolean(value) {
      let got = (value as? String).map { "; got the string \"\($0)\"" } ?? ""
      throw ConfigurationError(
        source: source, configuration: entry.name, setting: shown,
        reason:
          "must be true or false, a JSON boolean\(got) (JavaScript reads any non-empty string, \"false\" too, as true)"
      )
    }
    if let ios = spelling.ios { entry.settings[ios] = value }
  }
}
