import Foundation
import RegistrationCore
import SessionValues

/// 1 Contact record: the record as the device keeps it.
extension Panes {
  static func record(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let device = model.device else { return [[("launching…", .dim)]] }
    let record = device.state.record
    let acked = device.state.lastAcknowledged?.payload
    let g = model.glyphs
    func role(_ differs: Bool) -> StyleRole { differs ? .changed : .normal }
    var lines: [[(String, StyleRole)]] = []
    let keyDiffers = acked != nil && acked?.subscriberKey != record.contactKey
    lines.append([
      label("contact key"),
      record.contactKey.map { (text($0), role(keyDiffers)) } ?? ("(none)", .dim),
    ])
    lines.append([("attributes", .accent)])
    if record.attributes.isEmpty && record.clearedAttributes.isEmpty {
      lines.append([("  (none)", .dim)])
    }
    let ackedAttributes = Dictionary(
      (acked?.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    for (key, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
      let differs = acked != nil && ackedAttributes[key] != value
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        (text(value), role(differs)),
      ])
    }
    for key in record.clearedAttributes.sorted() where record.attributes[key] == nil {
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        ("cleared: sent once as \"\"", .changed),
      ])
    }
    lines.append([("tags", .accent)])
    let locked = device.settings.systemTags(hwid: record.device.environment.hwid)
    var tagLine: [(String, StyleRole)] = [("  ", .normal)]
    let ackedTags = Set(acked?.tags ?? [])
    for tag in device.settings.allTags(of: record) {
      if locked.contains(tag) {
        tagLine.append((g.lock + " " + tag + "  ", .locked))
      } else {
        tagLine.append((text(tag) + "  ", role(acked != nil && !ackedTags.contains(tag))))
      }
    }
    lines.append(tagLine)
    let removedTags = ackedTags.subtracting(device.settings.allTags(of: record))
    if !removedTags.isEmpty {
      lines.append([
        ("  removed: " + removedTags.sorted().map(text).joined(separator: " "), .changed)
      ])
    }
    let env = record.device.environment
    func field(_ name: String, _ value: String, _ wire: KeyPath<RegistrationPayload, String?>?)
      -> [(String, StyleRole)]
    {
      let differs = wire.map { acked != nil && acked?[keyPath: $0] != value } ?? false
      return [label("  " + name, 14), (text(value), role(differs))]
    }
    lines.append([("device", .accent)])
    lines.append(field("deviceID", record.device.deviceID, \.deviceID))
    lines.append(field("etAppId", record.device.etAppId, \.etAppId))
    lines.append(
      field("platform", "\(record.device.platform.rawValue) \(env.platformVersion)", nil))
    lines.append(field("app / sdk", "\(env.appVersion) / \(env.sdkVersion)", nil))
    lines.append(field("push token", env.deviceToken ?? "(none)", nil))
    lines.append(field("time zone", "\(env.timeZone) s, DST \(env.dst ? "on" : "off")", nil))
    lines.append(field("locale", "\(env.locale) / \(env.language)", nil))
    func flag(_ name: String, _ on: Bool) -> String { "\(name) \(on ? g.check : g.cross)" }
    lines.append([
      label("  enabled", 14),
      (
        "\(flag("push", env.pushEnabled))  \(flag("quiet", env.quietPushEnabled))  \(flag("location", env.locationEnabled))  \(flag("proximity", env.proximityEnabled))",
        .normal
      ),
    ])
    if device.settings.platform == .iOS {
      lines.append(field("badge", env.badge.map(String.init) ?? "(none)", nil))
    }
    lines.append([
      label("  app state", 14),
      (device.appState.rawValue, device.appState == .background ? .warning : .normal),
    ])
    if !device.missingRequired.isEmpty {
      lines.append([
        ("missing required (R6.3): " + device.missingRequired.joined(separator: ", "), .error)
      ])
    }
    if acked == nil {
      lines.append([("nothing acknowledged yet", .dim)])
    } else {
      lines.append([("highlight: not yet acknowledged", .dim)])
    }
    return lines
  }
}
