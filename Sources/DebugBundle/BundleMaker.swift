import Foundation
import RegistrationCore

/// A bundle made: the zip's bytes, and the files it holds (for a caller that shows them).
public struct MadeBundle: Sendable {
  public var zip: [UInt8]
  public var files: [(path: String, bytes: Int)]
  public var redacted: Bool
  public var deviceCount: Int
}

/// Makes a debug bundle: the material masked (always) and redacted (`--redact`), each device's
/// parts as files, the capture merged into one HAR, a README that says the ticket in words,
/// and a manifest with each file's size and SHA-256, zipped.
public enum BundleMaker {
  public static func make(_ material: BundleMaterial, redact: Bool) throws(BundleError)
    -> MadeBundle
  {
    var scrub = BundleScrub(redacting: redact)
    for secret in material.secrets where !secret.isEmpty { scrub.knowSecret(secret) }
    // The first walk: every JSON part masked, the values to redact gathered.
    let stats = material.stats.flatMap(BundleScrub.parse).map { scrub.mask($0) }
    var devices: [MaskedDevice] = []
    for device in material.devices {
      func part(_ bytes: [UInt8]?) -> Any? {
        bytes.flatMap(BundleScrub.parse).map { scrub.mask($0) }
      }
      devices.append(
        MaskedDevice(
          deviceID: device.deviceID, device: part(device.device), timeline: part(device.timeline),
          fields: part(device.fields), explain: part(device.explain)))
      scrub.gatherID(device.deviceID)
    }
    let capture = try mergedCapture(material.captures).map { scrub.mask($0) }
    let dumps = material.stateDumps.map { file in
      (file, BundleScrub.parse(file.bytes).map { scrub.mask($0) })
    }
    let reports = material.qaReports.map { file in
      (file, BundleScrub.parse(file.bytes).map { scrub.mask($0) })
    }
    let hiding = Self.hiding(scrub, redact: redact)
    // The second walk: every string rewritten with what the first found.
    var files = BundleFiles()
    let hiddenDevices = devices.map { $0.rewritten(hiding) }
    for (index, device) in hiddenDevices.enumerated() {
      device.add(to: &files, folder: "devices/\(index + 1)-\(Self.safeName(device.deviceID))")
    }
    if let capture {
      files.add(DebugBundle.capturePath, BundleScrub.written(BundleScrub.rewrite(capture, hiding)))
    }
    for (file, tree) in dumps {
      files.add("state-dumps/" + safeName(file.name), hidden(file.bytes, tree, hiding))
    }
    for (file, tree) in reports {
      files.add("qa/" + safeName(file.name), hidden(file.bytes, tree, hiding))
    }
    let settings = Self.settings(
      material, stats: stats.map { BundleScrub.rewrite($0, hiding) }, devices: hiddenDevices)
    files.add(DebugBundle.settingsPath, BundleScrub.written(settings))
    let readme = BundleReadme(
      material: material, settings: settings, devices: hiddenDevices, files: files,
      redacted: redact, hasCapture: capture != nil)
    files.add(DebugBundle.readmePath, hiding.bytes(Array(readme.text().utf8)))
    files.hideEverywhere(hiding)
    try files.checkSize()
    let manifest = Self.manifest(material, files: files, redact: redact, hiding: hiding)
    files.add(DebugBundle.manifestPath, manifest)
    return MadeBundle(
      zip: try BundleZip.zip(files.entries, date: material.createdAt),
      files: files.entries.map { ($0.path, $0.bytes.count) }, redacted: redact,
      deviceCount: hiddenDevices.count)
  }

  /// Secrets as they are shown; with `--redact`, each gathered value as its keyed hash.
  static func hiding(_ scrub: BundleScrub, redact: Bool) -> BundleHiding {
    var hiding = BundleHiding()
    for (secret, shown) in scrub.secrets { hiding.secrets.add(secret, shown) }
    if redact {
      let hash = KeyedHash()
      for value in scrub.identifying { hiding.values.add(value, hash.hashed(value)) }
    }
    return hiding
  }

  /// A JSON file rewritten from its walked tree; any other text through the replacers.
  static func hidden(_ bytes: [UInt8], _ tree: Any?, _ hiding: BundleHiding) -> [UInt8] {
    guard let tree else { return hiding.bytes(bytes) }
    return BundleScrub.written(BundleScrub.rewrite(tree, hiding))
  }

  /// The HAR documents as one: their entries in start order, a copy seen twice kept once.
  static func mergedCapture(_ captures: [NamedFile]) throws(BundleError) -> Any? {
    guard !captures.isEmpty else { return nil }
    var entries: [[String: Any]] = []
    var creator: Any = ["name": "RegScope", "version": RegScopeVersion.current]
    for capture in captures {
      guard let document = BundleScrub.parse(capture.bytes) as? [String: Any],
        let log = document["log"] as? [String: Any], let list = log["entries"] as? [Any]
      else {
        throw BundleError(
          .input,
          "\(TerminalText.escaped(capture.name)) is not a HAR 1.2 capture (no log.entries)")
      }
      if captures.count == 1, let own = log["creator"] { creator = own }
      entries += list.compactMap { $0 as? [String: Any] }
    }
    var seen: Set<[UInt8]> = []
    entries = entries.filter { seen.insert(BundleScrub.written($0, pretty: false)).inserted }
    entries.sort {
      ($0["startedDateTime"] as? String ?? "") < ($1["startedDateTime"] as? String ?? "")
    }
    return ["log": ["version": "1.2", "creator": creator, "entries": entries] as [String: Any]]
  }

  /// A name that is safe as one path component in any unzip: letters, digits, `.`, `-`, `_`.
  static func safeName(_ name: String) -> String {
    let last = name.split(separator: "/").last.map(String.init) ?? name
    let kept = last.unicodeScalars.map { scalar -> Character in
      scalar.isASCII
        && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
        ? Character(scalar) : "_"
    }
    let text = String(kept.prefix(64))
    return text.isEmpty || text.allSatisfy({ $0 == "." }) ? "file" : text
  }
}

/// The files of a bundle in the order they are zipped, each path once.
struct BundleFiles {
  private(set) var entries: [(path: String, bytes: [UInt8])] = []

  mutating func add(_ path: String, _ bytes: [UInt8]) {
    var unique = path
    var number = 2
    while entries.contains(where: { $0.path == unique }) {
      unique = path + "-\(number)"
      number += 1
    }
    entries.append((unique, bytes))
  }

  /// The last pass: a secret (or, with `--redact`, a value) that reached a file by a way the
  /// walks did not foresee is hidden there too.
  mutating func hideEverywhere(_ hiding: BundleHiding) {
    entries = entries.map { ($0.path, hiding.bytes($0.bytes)) }
  }

  var totalBytes: Int { entries.reduce(0) { $0 + $1.bytes.count } }

  func checkSize() throws(BundleError) {
    guard totalBytes > DebugBundle.largestBytes || entries.count > DebugBundle.largestFileCount
    else { return }
    let largest = entries.sorted { $0.bytes.count > $1.bytes.count }.prefix(3).map {
      "\($0.path) \(NumberText.grouped($0.bytes.count)) bytes"
    }
    throw BundleError(
      .tooLarge,
      "the bundle would hold \(NumberText.grouped(totalBytes)) bytes in \(entries.count) files, more than the \(DebugBundle.largestSaid) (and \(NumberText.grouped(DebugBundle.largestFileCount)) files) a bundle holds; the largest: \(largest.joined(separator: ", ")). Bundle one device (--device ID), or fewer files"
    )
  }
}
