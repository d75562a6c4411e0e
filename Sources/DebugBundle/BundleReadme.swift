import Foundation
import RegistrationCore

/// The bundle's README.md: the ticket in the words a support engineer reads first.
struct BundleReadme {
  let material: BundleMaterial
  let settings: [String: Any]
  let devices: [MaskedDevice]
  let files: BundleFiles
  let redacted: Bool
  let hasCapture: Bool

  static let maskingWords =
    "access tokens, bearer and cookie headers, X-Subscriber-Token and every other secret are masked as RegScope prints them: the first four characters, the length and a 32-bit fingerprint (equal secrets mask equal)"
  static let redactionWords =
    "each contact key, device id, push token and attribute value is replaced with rd- and the first 64 bits of its HMAC-SHA256 under a random key made for this bundle and not kept: equal values are equal inside the bundle, and nothing in it leads back to the value"

  func text() -> String {
    var lines = [
      "# RegScope debug bundle", "",
      "Made \(Self.time(material.createdAt.timeIntervalSince1970)) by RegScope \(RegScopeVersion.current) from \(say(material.origin)): \(devices.count) device\(devices.count == 1 ? "" : "s").",
      "",
      "**Privacy.** Masked: \(Self.maskingWords).",
      redacted
        ? "**Redacted (--redact).** \(Self.redactionWords.prefix(1).uppercased() + Self.redactionWords.dropFirst())."
        : "Not redacted: contact keys, device ids, push tokens and attribute values are as the app sent them (regctl bundle --redact hides them).",
      "",
    ]
    lines += settingsSection()
    for device in devices { lines += deviceSection(device) }
    lines += filesSection()
    lines += gapsSection()
    lines += reopenSection()
    return lines.joined(separator: "\n") + "\n"
  }

  private func say(_ text: String) -> String { TerminalText.escaped(text) }

  private func settingsSection() -> [String] {
    var lines = ["## The settings that shaped the verdict", ""]
    if let demographics = settings["demographics"] as? [String: Any] {
      let names = (demographics["attributes"] as? [String])?.joined(separator: ", ")
      let source = demographics["source"] as? String ?? "not known"
      let table = names.map { say($0.isEmpty ? "(empty: every attribute rejected)" : $0) }
      lines.append(
        "- demographics table (S5): \(table ?? "none: every attribute accepted")\(table == nil && source.hasPrefix("none") ? "" : " (\(say(source)))")"
      )
    }
    if let delay = settings["processingDelay"] as? Double {
      lines.append("- processing delay (S2): \(DurationText.describe(delay))")
    }
    if let fault = settings["fault"] as? String {
      lines.append("- fault in force (S7): \(say(fault))")
    }
    lines.append(
      "- RegScope \(RegScopeVersion.current); each device judged by its SDK's profile (below)")
    return lines + [""]
  }

  private func deviceSection(_ device: MaskedDevice) -> [String] {
    let client = device.client
    let entry = device.device as? [String: Any] ?? [:]
    let platform = [client["platform"] ?? entry["platform"], client["systemVersion"]]
      .compactMap { $0 as? String }.joined(separator: " ")
    let sdk = [client["sdk"], client["sdkVersion"]].compactMap { $0 as? String }
      .joined(separator: " ")
    let app = [client["bundleID"], client["appVersion"]].compactMap { $0 as? String }
      .joined(separator: " ")
    var lines = [
      "## Device \(say(device.deviceID))", "",
      "- platform: \(platform.isEmpty ? "not seen" : say(platform))",
      "- SDK: \(sdk.isEmpty ? "not seen" : say(sdk))\((client["profile"] as? String).map { ", judged as \(say($0))" } ?? "")",
      "- app: \(app.isEmpty ? "not seen" : say(app))",
      "- contact key: \((entry["contactKey"] as? String).map { "\"\(say($0))\"" } ?? "none held")",
    ]
    let timeline = device.timeline as? [String: Any] ?? [:]
    if let count = timeline["registrationCount"] as? Int {
      let seen = [client["firstSeen"], client["lastSeen"]].compactMap { $0 as? Double }.map(
        Self.time)
      lines.append(
        "- registrations: \(count)\((client["refused"] as? Int).map { $0 > 0 ? ", \($0) refused" : "" } ?? "")\(seen.count == 2 ? ", from \(seen[0]) to \(seen[1])" : "")"
      )
    }
    if let refusal = client["lastRefusal"] as? String {
      lines.append("- newest refusal: \(say(refusal))")
    }
    lines +=
      findingLines(device) + fieldLines(device) + readBackLines(device) + explainLines(device)
    return lines + [""]
  }

  private func findingLines(_ device: MaskedDevice) -> [String] {
    let findings = device.findings
    guard device.timeline != nil else {
      return ["", "### What went wrong", "", "(no timeline held)"]
    }
    guard !findings.isEmpty else { return ["", "### What went wrong", "", "No finding."] }
    return [
      "", "### What went wrong (\(findings.count) finding\(findings.count == 1 ? "" : "s"))", "",
    ]
      + findings.map { finding in
        let head = [finding["severity"], finding["code"]].compactMap { $0 as? String }
          .joined(separator: " ")
        let rule = (finding["rule"] as? String).map { " (\(say($0)))" } ?? ""
        let at = (finding["at"] as? Double).map { " at \(Self.time($0))" } ?? ""
        let fix = (finding["fix"] as? String).map { " Fix: \(say($0))" } ?? ""
        return "- \(say(head))\(rule)\(at): \(say(finding["message"] as? String ?? "")).\(fix)"
      }
  }

  private func fieldLines(_ device: MaskedDevice) -> [String] {
    guard let stories = device.fields as? [String: Any],
      let fields = stories["fields"] as? [[String: Any]], !fields.isEmpty
    else { return [] }
    return ["", "### Each field's story", ""]
      + fields.map { field in
        let kind = field["kind"] as? String ?? "field"
        let name =
          kind == "contactKey" ? "contact key" : "\(kind) \(field["name"] as? String ?? "")"
        let events = field["events"] as? [[String: Any]] ?? []
        var parts: [String] = []
        if let last = events.last {
          let value =
            (last["value"] as? String).map { kind == "tag" ? $0 : "\"\($0)\"" } ?? "(no value)"
          let at = (last["at"] as? Double).map { " at \(Self.time($0))" } ?? ""
          let why = (last["why"] as? String).map { ": \($0)" } ?? ""
          parts.append(
            "last \(kind == "tag" ? "" : "sent ")\(value)\(at), \(last["outcome"] as? String ?? "?")\(why)"
          )
        }
        if let holds = field["holds"] as? String { parts.append("the contact holds \"\(holds)\"") }
        if let tenant = field["tenant"] as? [String: Any], let word = tenant["word"] as? String {
          parts.append("the tenant: \(word)")
        }
        return "- \(say(name)): \(say(parts.joined(separator: "; ")))"
      }
  }

  private func readBackLines(_ device: MaskedDevice) -> [String] {
    let timeline = device.timeline as? [String: Any] ?? [:]
    let readBacks = timeline["readBacks"] as? [[String: Any]] ?? []
    guard !readBacks.isEmpty else {
      return [
        "", "### The tenant's read-back", "",
        "Not asked (a receiver with --tenant and --upstream asks the tenant whether each registration arrived).",
      ]
    }
    return ["", "### The tenant's read-back", ""]
      + readBacks.map { readBack in
        let at = (readBack["askedAt"] as? Double).map { "\(Self.time($0)): " } ?? ""
        return
          "- \(at)\(say(readBack["summary"] as? String ?? readBack["outcome"] as? String ?? ""))"
      }
  }

  private func explainLines(_ device: MaskedDevice) -> [String] {
    let sentences = (device.explain as? [String: Any])?["sentences"] as? [String] ?? []
    guard !sentences.isEmpty else { return [] }
    let shown = sentences.prefix(30).map { "- " + say($0) }
    let more = sentences.count > 30 ? ["- (\(sentences.count - 30) more in explain.json)"] : []
    return ["", "### Explained", ""] + shown + more
  }

  private func filesSection() -> [String] {
    var lines = ["## What else it holds", ""]
    if hasCapture {
      lines.append(
        "- \(DebugBundle.capturePath): the capture as HAR 1.2, every device's requests and answers (tokens masked)"
      )
    }
    for entry in files.entries where entry.path.hasPrefix("qa/") {
      lines.append(
        "- \(entry.path): a QA report\(Self.verdict(entry.bytes).map { ": \($0)" } ?? "")")
    }
    for entry in files.entries where entry.path.hasPrefix("state-dumps/") {
      lines.append(
        entry.path.hasSuffix(".reading.txt")
          ? "- \(entry.path): how regctl state --import reads the dump beside it (pending, next send, findings)"
          : "- \(entry.path): an SDK state dump as it was given (regctl state --import reads it)")
    }
    lines.append(
      "- devices/N-ID/: each device's entry (device.json), timeline, findings, field stories (fields.json) and explanation, as the receiver's API shapes them"
    )
    lines.append(
      "- \(DebugBundle.settingsPath): the settings above; \(DebugBundle.manifestPath): each file's size and SHA-256, what was masked and redacted"
    )
    return lines + [""]
  }

  /// A QA report's verdict, as its own first line says it.
  static func verdict(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes.prefix(64 << 10), as: UTF8.self)
    if let line = text.split(separator: "\n").first(where: { $0.contains("Result:") }) {
      return TerminalText.escaped(line.trimmingCharacters(in: .whitespaces))
    }
    if let suite = text.range(of: "failures=\"") {
      let count = text[suite.upperBound...].prefix { $0 != "\"" }
      return "JUnit, \(TerminalText.escaped(String(count))) failure\(count == "1" ? "" : "s")"
    }
    return nil
  }

  private func gapsSection() -> [String] {
    guard !material.gaps.isEmpty else { return [] }
    return ["## Not in the bundle", ""] + material.gaps.map { "- " + say($0) } + [""]
  }

  private func reopenSection() -> [String] {
    [
      "## How to reopen it", "",
      "- `regscope --open THIS.zip`: the devices, their timeline, findings, Fields pane and field stories, read-only and offline",
      "- `regctl judge THIS.zip`: the capture inside judged again, as the receiver judged it (`--json`, `--explain`, `--fields` as for a HAR)",
      "- any unzip: every file is plain JSON, Markdown or HAR 1.2 (Charles, Proxyman and the browsers open the capture)",
      "", "RegScope's docs/bundle.md says what a bundle holds and how it is made.",
    ]
  }

  /// Seconds since 1970 as `2026-11-28 10:42:15 UTC`.
  static func time(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e11 else { return "\(seconds) s" }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: seconds)) + " UTC"
  }
}
