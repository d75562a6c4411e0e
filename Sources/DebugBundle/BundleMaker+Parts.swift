import Foundation
import RegistrationCore

/// One device's parts, walked: what its folder in the bundle holds.
struct MaskedDevice {
  var deviceID: String
  var device: Any?
  var timeline: Any?
  var fields: Any?
  var explain: Any?

  func rewritten(_ hiding: BundleHiding) -> MaskedDevice {
    func walk(_ part: Any?) -> Any? { part.map { BundleScrub.rewrite($0, hiding) } }
    return MaskedDevice(
      deviceID: hiding.text(deviceID), device: walk(device), timeline: walk(timeline),
      fields: walk(fields), explain: walk(explain))
  }

  var client: [String: Any] {
    (timeline as? [String: Any])?["client"] as? [String: Any]
      ?? (device as? [String: Any])?["client"] as? [String: Any] ?? [:]
  }

  /// Every finding of the device's timeline, oldest first, each with its registration's time
  /// and answer: what went wrong, with rule and fix.
  var findings: [[String: Any]] {
    let registrations = (timeline as? [String: Any])?["registrations"] as? [[String: Any]] ?? []
    return registrations.flatMap { registration in
      (registration["findings"] as? [[String: Any]] ?? []).map { finding in
        var finding = finding
        finding["at"] = registration["at"] ?? NSNull()
        finding["status"] = registration["status"] ?? NSNull()
        return finding
      }
    }
  }

  func add(to files: inout BundleFiles, folder: String) {
    if let device { files.add(folder + "/device.json", BundleScrub.written(device)) }
    if let timeline {
      files.add(folder + "/timeline.json", BundleScrub.written(timeline))
      files.add(
        folder + "/findings.json",
        BundleScrub.written(["deviceID": deviceID, "findings": findings] as [String: Any]))
    }
    if let fields { files.add(folder + "/fields.json", BundleScrub.written(fields)) }
    if let explain { files.add(folder + "/explain.json", BundleScrub.written(explain)) }
  }
}

extension BundleMaker {
  /// The settings that shaped the verdict: the demographics table and where it came from, the
  /// processing delay, a fault in force, each device's SDK profile, RegScope's version.
  static func settings(_ material: BundleMaterial, stats: Any?, devices: [MaskedDevice])
    -> [String: Any]
  {
    var settings: [String: Any] = [
      "regscopeVersion": RegScopeVersion.current, "origin": material.origin,
      "createdAt": BundleReadme.time(material.createdAt.timeIntervalSince1970),
    ]
    if let stats = stats as? [String: Any] {
      let defined = stats["definedAttributes"] as? [String]
      settings["demographics"] = [
        "attributes": defined.map { $0 as Any } ?? NSNull(),
        "source": material.demographicsSource
          ?? (defined == nil ? "none: every attribute accepted" : "the table the receiver held"),
      ]
      settings["processingDelay"] = stats["processingDelay"] ?? NSNull()
      settings["fault"] = stats["fault"] ?? NSNull()
      settings["stats"] = stats.filter {
        !["definedAttributes", "processingDelay", "fault"].contains($0.key)
      }
    } else if let source = material.demographicsSource {
      settings["demographics"] = ["source": source]
    }
    var profiles: [String: Any] = [:]
    for device in devices {
      if let profile = device.client["profile"] as? String { profiles[device.deviceID] = profile }
    }
    settings["profiles"] = profiles
    return settings
  }

  /// Each file's path, size and SHA-256, and what was masked and redacted.
  static func manifest(
    _ material: BundleMaterial, files: BundleFiles, redact: Bool, hiding: BundleHiding
  ) -> [UInt8] {
    let listed: [[String: Any]] = files.entries.map {
      ["path": $0.path, "bytes": $0.bytes.count, "sha256": Digest.hex(Digest.sha256($0.bytes))]
    }
    let redaction: Any =
      redact
      ? [
        "what": ["contact keys", "device ids", "push tokens", "attribute values"],
        "how": BundleReadme.redactionWords,
        "values": hiding.values.whole.count,
      ] as [String: Any] : NSNull()
    let manifest: [String: Any] = [
      "bundle": "RegScope debug bundle", "format": 1, "regscopeVersion": RegScopeVersion.current,
      "createdAt": BundleReadme.time(material.createdAt.timeIntervalSince1970),
      "origin": hiding.text(material.origin), "files": listed,
      "masked": [
        "what": BundleReadme.maskingWords, "secrets": hiding.secrets.whole.count,
      ] as [String: Any],
      "redacted": redaction, "largestBytes": DebugBundle.largestBytes,
    ]
    return BundleScrub.written(manifest)
  }
}
