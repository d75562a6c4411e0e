import Foundation
import RegistrationCore
import SystemCalls

/// A bundle read back: its files, what its manifest says, and each file whose bytes are not
/// the ones the manifest lists.
public struct OpenedBundle: Sendable {
  public var path: String
  public var files: [String: [UInt8]]
  /// Files whose size or SHA-256 differ from the manifest's, or that it does not list.
  public var changed: [String]
  /// The manifest's `origin` and `createdAt`, when it has them.
  public var origin: String?
  public var createdAt: String?
  public var redacted: Bool

  /// The capture inside, when it holds one.
  public var capture: [UInt8]? { files[DebugBundle.capturePath] }

  /// The demographics table the bundle's verdict was made with: nil for every attribute
  /// accepted, or when the bundle does not say.
  public var definedAttributes: Set<String>? {
    guard let bytes = files[DebugBundle.settingsPath],
      let settings = BundleScrub.parse(bytes) as? [String: Any],
      let demographics = settings["demographics"] as? [String: Any],
      let names = demographics["attributes"] as? [String]
    else { return nil }
    return Set(names)
  }

  /// Where it came from and when, in words: for a screen's header or a judge's first line.
  public var described: String {
    "bundle \(path)"
      + (origin.map { ", made from \($0)" } ?? "")
      + (createdAt.map { " at \($0)" } ?? "") + (redacted ? ", redacted" : "")
  }
}

public enum BundleReader {
  /// Whether the file starts as a zip does (`PK\3\4`): what `regctl judge` tells a bundle
  /// from a HAR by.
  public static func isBundle(_ path: String) -> Bool {
    SystemCalls.readHead(path, count: 4) == [0x50, 0x4B, 0x03, 0x04]
  }

  /// The bundle at `path`, read whole within its bounds and checked against its manifest.
  public static func open(_ path: String) throws(BundleError) -> OpenedBundle {
    // The zip is never larger than what it holds by more than its headers.
    switch SystemCalls.fileInfo(path) {
    case .failure(let failure):
      throw BundleError(.input, "\(TerminalText.escaped(path)) cannot be read (\(failure))")
    case .success(let info) where info.kind != .regular:
      throw BundleError(.input, "\(TerminalText.escaped(path)) is not a regular file")
    case .success(let info) where info.size > DebugBundle.largestBytes + (8 << 20):
      throw BundleError(
        .tooLarge,
        "\(TerminalText.escaped(path)) is \(info.size) bytes, more than a bundle of \(DebugBundle.largestSaid) can be"
      )
    case .success: break
    }
    return try checked(BundleZip.unzip(path: path, name: path), path: path)
  }

  /// A bundle's bytes (`name` says where they came from), read within its bounds and checked
  /// against its manifest: through a private temporary file, removed at once.
  public static func read(_ bytes: [UInt8], name: String) throws(BundleError) -> OpenedBundle {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
      "regscope-bundle-\(UUID().uuidString).zip"
    ).path
    if let problem = SystemCalls.replaceFile(temporary, with: bytes) {
      throw BundleError(.input, "\(TerminalText.escaped(name)) could not be read (\(problem))")
    }
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    return try checked(BundleZip.unzip(path: temporary, name: name), path: name)
  }

  /// The files against the manifest.
  private static func checked(_ files: [String: [UInt8]], path: String) throws(BundleError)
    -> OpenedBundle
  {
    guard let manifestBytes = files[DebugBundle.manifestPath],
      let manifest = BundleScrub.parse(manifestBytes) as? [String: Any],
      manifest["bundle"] as? String == "RegScope debug bundle"
    else {
      throw BundleError(
        .notABundle,
        "\(TerminalText.escaped(path)) is a zip file but not a RegScope bundle (it has no manifest.json of one)"
      )
    }
    let listed = manifest["files"] as? [[String: Any]] ?? []
    var changed: [String] = []
    for entry in listed {
      guard let name = entry["path"] as? String else { continue }
      let content = files[name]
      if content == nil || content?.count != entry["bytes"] as? Int
        || content.map({ Digest.hex(Digest.sha256($0)) }) != entry["sha256"] as? String
      {
        changed.append(name)
      }
    }
    let names = Set(listed.compactMap { $0["path"] as? String })
    changed += files.keys.filter { $0 != DebugBundle.manifestPath && !names.contains($0) }.sorted()
    return OpenedBundle(
      path: path, files: files, changed: changed, origin: manifest["origin"] as? String,
      createdAt: manifest["createdAt"] as? String, redacted: manifest["redacted"] is [String: Any])
  }
}
