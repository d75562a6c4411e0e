import Foundation
import RegistrationCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A Cordova app's `config.xml`, read as the Marketing Cloud Cordova plugin reads it: the
/// `<preference name="com.salesforce.marketingcloud.*" value="..."/>` elements at the top of
/// `<widget>`, and inside `<platform name="ios">` / `<platform name="android">`, which override
/// the top-level ones on that platform. Both platforms lowercase a preference's name before the
/// plugin matches it (Cordova iOS's settings, the Android plugin's own parser), so case does not
/// matter; a name without the `com.` prefix, or another format's key, is ignored without a
/// word, so it is named with the right spelling.
///
/// The file is one configuration, `cordova`, unless a platform block sets a registration
/// setting: then two, `ios` and `android` (each the top level with its block over it), with
/// the platform set. Fixed names, not the widget's id, so `--config-name` is predictable.
enum CordovaConfigFile {
  static let reader = "the Cordova plugin"

  /// XML: the first character after a byte-order mark and white space is `<`.
  static func looksLikeXML(_ data: Data) -> Bool {
    var bytes = data[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    return bytes.first(where: { !space.contains($0) }) == UInt8(ascii: "<")
  }

  static func entries(_ data: Data, source: String) throws(ConfigurationError)
    -> [ConfigurationEntry]
  {
    let document = try CordovaDocument.read(data, source: source)
    let split = document.preferences.contains { preference in
      (preference.platform == "ios" || preference.platform == "android")
        && classify(preference.name)?.spelling.ios != nil
    }
    let names: [(String, Platform?)] =
      split ? [("ios", .iOS), ("android", .android)] : [("cordova", nil)]
    var result: [ConfigurationEntry] = []
    for (name, platform) in names {
      result.append(try entry(name, platform: platform, document: document, source: source))
    }
    return result
  }

  /// The setting a preference name stands for, and whether it is the plugin's own spelling
  /// (else a near miss). Nil when it is no Marketing Cloud setting at all.
  static func classify(_ name: String) -> (spelling: SettingSpelling, exact: Bool)? {
    let lowered = name.lowercased()
    let prefix = ConfigurationKeys.cordovaPrefix
    if lowered.hasPrefix(prefix),
      let spelling = ConfigurationKeys.cordova(String(lowered.dropFirst(prefix.count)))
    {
      return (spelling, true)
    }
    guard let spelling = ConfigurationKeys.nearest(name), spelling.cordova != nil else {
      return nil
    }
    return (spelling, false)
  }

  private static func entry(
    _ name: String, platform: Platform?, document: CordovaDocument, source: String
  ) throws(ConfigurationError) -> ConfigurationEntry {
    var entry = ConfigurationEntry(name: name, settings: [:])
    if let platform { entry.settings["platform"] = platform.rawValue }
    for spelling in ConfigurationKeys.all {
      guard let ios = spelling.ios, let cordova = spelling.cordova else { continue }
      entry.spelling[ios] = ConfigurationKeys.cordovaPrefix + cordova
    }
    // The top level first, then this platform's block: the later one wins, as in the
    // config.xml Cordova writes for each platform.
    let chosen =
      document.preferences.filter { $0.platform == nil }
      + document.preferences.filter { platform != nil && $0.platform == name }
    for preference in chosen {
      try read(preference, into: &entry, source: source)
    }
    let widget = document.widget
    entry.bundleIDs[.iOS] = widget["ios-CFBundleIdentifier"] ?? widget["id"]
    entry.bundleIDs[.android] = widget["android-packageName"] ?? widget["id"]
    return entry
  }

  private static func read(
    _ preference: CordovaPreference, into entry: inout ConfigurationEntry, source: String
  ) throws(ConfigurationError) {
    let place = "\(source) line \(preference.line)"
    guard let found = classify(preference.name) else {
      if preference.name.lowercased().hasPrefix(ConfigurationKeys.cordovaPrefix) {
        entry.notes.append(
          "\(place): preference \"\(preference.name)\" is not one \(reader) reads")
      }
      return
    }
    let right = ConfigurationKeys.cordovaPrefix + (found.spelling.cordova ?? "")
    guard found.exact else {
      entry.nearMisses.append(
        NearMiss(
          place: place, kind: "preference", written: preference.name, right: right,
          reader: reader, iosKey: found.spelling.ios))
      return
    }
    // Read by the plugin but not a registration setting (the sender id, the icon).
    guard let key = found.spelling.ios else { return }
    guard let value = preference.value else {
      entry.notes.append(
        "\(place): preference \"\(preference.name)\" has no value, so \(reader) skips it")
      return
    }
    guard found.spelling.isBoolean else {
      entry.settings[key] = value
      return
    }
    // The Android plugin reads only "true" (any case) as true; iOS's boolValue also takes
    // "yes" and "1": anything but true/false means different things on the two.
    switch value.lowercased() {
    case "true": entry.settings[key] = NSNumber(value: true)
    case "false": entry.settings[key] = NSNumber(value: false)
    default:
      throw ConfigurationError(
        source: place, configuration: entry.name, setting: preference.name,
        reason:
          "must be \"true\" or \"false\"; got \"\(value)\" (the Android plugin reads anything but \"true\" as false, iOS reads \"yes\" and \"1\" as true)"
      )
    }
  }
}

/// One `<preference>` of a config.xml: where it is, and the platform block it is in (nil at
/// the top of `<widget>`; "" for a `<platform>` without a name).
struct CordovaPreference {
  var name: String
  var value: String?
  var line: Int
  var platform: String?
}

/// What a config.xml holds for the plugin, read with Foundation's XMLParser (libxml2 on
/// Linux): the widget's attributes and its preferences.
final class CordovaDocument: NSObject, XMLParserDelegate {
  private(set) var widget: [String: String] = [:]
  private(set) var preferences: [CordovaPreference] = []
  private var root: String?
  private var path: [String] = []
  private var platform: String?
  /// The first error's line and column.
  private var errorAt: (Int, Int)?

  /// What Foundation's XML parser on Linux traps on (found by fuzzing): a name that is not
  /// UTF-8 (it force-unwraps the string), a processing instruction with no data (it reads a
  /// null pointer), a NUL byte. No config.xml holds any of them, nor a document type; such a
  /// file is refused here, with a message, before the parser sees it.
  static func unsafeForParser(_ data: Data) -> String? {
    guard let text = String(validating: data, as: UTF8.self) else {
      let read = String(decoding: data, as: UTF8.self).prefix { $0 != "\u{FFFD}" }
      let line = read.split(separator: "\n", omittingEmptySubsequences: false).count
      return "is not valid UTF-8 (line \(line)); a Cordova config.xml is UTF-8"
    }
    func line(of index: String.Index) -> Int {
      text[..<index].split(separator: "\n", omittingEmptySubsequences: false).count
    }
    if let nul = text.firstIndex(of: "\0") { return "holds a NUL byte (line \(line(of: nul)))" }
    // The XML declaration, if any, opens the file; no other processing instruction belongs.
    var rest = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
    if rest.hasPrefix("<?xml ") || rest.hasPrefix("<?xml?") {
      let end = rest.range(of: "?>")?.upperBound ?? rest.endIndex
      // libxml2 reports a declaration without its version, and the parser then reads a null
      // pointer (`<?xml?>`, found by fuzzing).
      guard declaresVersion(rest[..<end]) else {
        return
          "has an XML declaration without its version (line \(line(of: rest.startIndex))); write <?xml version=\"1.0\" encoding=\"utf-8\"?>"
      }
      // libxml2 decodes the file as the declaration says (UTF-7 among them), which would
      // put back what the checks on the UTF-8 bytes refuse (an entity): UTF-8 only.
      if let encoding = declaredEncoding(rest[..<end]),
        !["utf-8", "utf8"].contains(encoding.lowercased())
      {
        return
          "declares the encoding \"\(String(encoding.prefix(40)))\" (line \(line(of: rest.startIndex))); a Cordova config.xml is read as UTF-8 only: save it as UTF-8 with encoding=\"utf-8\""
      }
      rest = rest[end...]
    }
    if let instruction = rest.range(of: "<?") {
      return
        "holds a processing instruction (line \(line(of: instruction.lowerBound))); a Cordova config.xml has none but its XML declaration"
    }
    if let doctype = text.range(of: "<!DOCTYPE") {
      return
        "declares a document type (line \(line(of: doctype.lowerBound))); a Cordova config.xml has none"
    }
    return nil
  }

  /// The `encoding="..."` an XML declaration names, if any.
  static func declaredEncoding(_ declaration: Substring) -> String? {
    guard let key = declaration.range(of: "encoding") else { return nil }
    var rest = declaration[key.upperBound...].drop { $0.isWhitespace }
    guard rest.first == "=" else { return nil }
    rest = rest.dropFirst().drop { $0.isWhitespace }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    return String(rest.dropFirst().prefix { $0 != quote })
  }

  /// XML in UTF-16 or UTF-32 (a byte-order mark, or the zero bytes of `<` in two or four
  /// bytes): named, so such a file is not called broken JSON.
  static func wideXMLEncoding(_ data: Data) -> String? {
    let head = Array(data.prefix(4))
    let encoding: (name: String, foundation: String.Encoding)?
    if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00])
      || (head.count == 4 && (head[0...2] == [0, 0, 0] || head[1...3] == [0, 0, 0]))
    {
      encoding = ("UTF-32", .utf32)
    } else if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
      || (head.count >= 2 && (head[0] == 0) != (head[1] == 0))
    {
      encoding = ("UTF-16", .utf16)
    } else {
      encoding = nil
    }
    guard let encoding else { return nil }
    let text =
      String(data: data.prefix(256), encoding: encoding.foundation)
      ?? String(
        data: data.prefix(256),
        encoding: encoding.name == "UTF-16" ? .utf16LittleEndian : .utf32LittleEndian)
      ?? ""
    let first = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.first
    return first == "<" ? encoding.name : nil
  }

  /// Whether an XML declaration says `version="..."` (or with single quotes) first, as XML
  /// requires.
  static func declaresVersion(_ declaration: Substring) -> Bool {
    var rest = declaration.dropFirst("<?xml".count).drop { $0.isWhitespace }
    guard rest.hasPrefix("version") else { return false }
    rest = rest.dropFirst("version".count).drop { $0.isWhitespace }
    guard rest.first == "=" else { return false }
    rest = rest.dropFirst().drop { $0.isWhitespace }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return false }
    let value = rest.dropFirst().prefix { $0 != quote }
    return !value.isEmpty && rest.dropFirst(value.count + 1).first == quote
  }

  static func read(_ data: Data, source: String) throws(ConfigurationError) -> CordovaDocument {
    func fail(_ reason: String) -> ConfigurationError {
      ConfigurationError(source: source, configuration: nil, setting: nil, reason: reason)
    }
    // A config.xml declares no entities; refusing them keeps entity expansion (and any
    // external entity) out of reach of a file RegScope is handed.
    if data.range(of: Data("<!ENTITY".utf8)) != nil {
      throw fail("declares XML entities (<!ENTITY ...>); a Cordova config.xml has none")
    }
    if let problem = unsafeForParser(data) { throw fail(problem) }
    let document = CordovaDocument()
    let parser = XMLParser(data: data)
    parser.delegate = document
    // libxml2 recovers from what it can and goes on, so an error it reported fails the file
    // too, except a namespace error (an undeclared prefix), which is no reason to refuse it.
    if !parser.parse() || document.errorAt != nil {
      let (line, column) = document.errorAt ?? (parser.lineNumber, parser.columnNumber)
      throw fail("is not well-formed XML: an error at line \(line), column \(column)")
    }
    guard document.root == "widget" else {
      let found = document.root.map { "its root element is <\($0)>" } ?? "it has no element"
      throw fail("is XML but not a Cordova config.xml: \(found), not <widget>")
    }
    return document
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    if path.isEmpty {
      root = elementName
      if elementName == "widget" { widget = attributeDict }
    }
    let parent = path.last
    path.append(elementName)
    guard path.first == "widget" else { return }
    switch elementName {
    case "platform" where path.count == 2:
      platform = attributeDict["name"]?.lowercased() ?? ""
    case "preference" where path.count == 2 || (path.count == 3 && parent == "platform"):
      guard let name = attributeDict["name"] else { return }
      preferences.append(
        CordovaPreference(
          name: name, value: attributeDict["value"], line: parser.lineNumber,
          platform: path.count == 3 ? platform : nil))
    default: break
    }
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    if !path.isEmpty { path.removeLast() }
    if elementName == "platform" && path.count == 1 { platform = nil }
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    // libxml2's namespace errors are numbered 200 to 299 (XML_NS_ERR_*).
    if (200..<300).contains((parseError as NSError).code) { return }
    // The first error is the one to fix; libxml2 may report more while it recovers.
    if errorAt == nil { errorAt = (parser.lineNumber, parser.columnNumber) }
  }
}
