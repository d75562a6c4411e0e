import Foundation
import RegistrationCore
import SessionValues

/// 1 Contact record: the record as the device keeps it.
extension Panes {
  static func record(_ model: InspectorModel) -> [Line] {
    guard let device = model.device else { return [[("launching…", .dim)]] }
    let record = device.state.record
    let acked = device.state.lastAcknowledged?.payload
    let keyDiffers = acked != nil && acked?.subscriberKey != record.contactKey
    var lines: [Line] = [
      [
        label("contact key"),
        record.contactKey.map { (text($0), changed(keyDiffers)) } ?? ("(none)", .dim),
      ]
    ]
    lines += recordAttributes(record, acked: acked)
    lines += recordTags(device, acked: acked, glyphs: model.glyphs)
    lines += recordDevice(device, acked: acked, glyphs: model.glyphs)
    if !device.missingRequired.isEmpty {
      lines.append([
        ("missing required (R6.3): " + device.missingRequired.joined(separator: ", "), .error)
      ])
    }
    lines.append([
      (acked == nil ? "nothing acknowledged yet" : "highlight: not yet acknowledged", .dim)
    ])
    return lines
  }

  /// What is not yet acknowledged stands out.
  private static func changed(_ differs: Bool) -> StyleRole { differs ? .changed : .normal }

  private static func recordAttributes(_ record: ContactRecord, acked: RegistrationPayload?)
    -> [Line]
  {
    var lines: [Line] = [[("attributes", .accent)]]
    if record.attributes.isEmpty && record.clearedAttributes.isEmpty {
      lines.append([("  (none)", .dim)])
    }
    let ackedAttributes = Dictionary(
      (acked?.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    for (key, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
      let differs = acked != nil && ackedAttributes[key] != value
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        (text(value), changed(differs)),
      ])
    }
    for key in record.clearedAttributes.sorted() where record.attributes[key] == nil {
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        ("cleared: sent once as \"\"", .changed),
      ])
    }
    return lines
  }

  private static func recordTags(
    _ device: EngineSnapshot, acked: RegistrationPayload?, glyphs g: Glyphs
  ) -> [Line] {
    let record = device.state.record
    let locked = device.settings.systemTags(hwid: record.device.environment.hwid)
    var tagLine: Line = [("  ", .normal)]
    let ackedTags = Set(acked?.tags ?? [])
    for tag in device.settings.allTags(of: record) {
      if locked.contains(tag) {
        tagLine.append((g.lock + " " + tag + "  ", .locked))
      } else {
        tagLine.append((text(tag) + "  ", changed(acked != nil && !ackedTags.contains(tag))))
      }
    }
    var lines: [Line] = [[("tags", .accent)], tagLine]
    let removedTags = ackedTags.subtracting(device.settings.allTags(of: record))
    if !removedTags.isEmpty {
      lines.append([
        ("  removed: " + removedTags.sorted().map(text).joined(separator: " "), .changed)
      ])
    }
    return lines
  }

  private static func recordDevice(
    _ device: EngineSnapshot, acked: RegistrationPayload?, glyphs g: Glyphs
  ) -> [Line] {
    let record = device.state.record
    let env = record.device.environment
    func field(_ name: String, _ value: String, _ wire: KeyPath<RegistrationPayload, String?>?)
      -> Line
    {
      let differs = wire.map { acked != nil && acked?[keyPath: $0] != value } ?? false
      return [label("  " + name, 14), (text(value), changed(differs))]
    }
    func flag(_ name: String, _ on: Bool) -> String { "\(name) \(on ? g.check : g.cross)" }
    var lines: [Line] = [
      [("device", .accent)],
      field("deviceID", record.device.deviceID, \.deviceID),
      field("etAppId", record.device.etAppId, \.etAppId),
      field("platform", "\(record.device.platform.rawValue) \(env.platformVersion)", nil),
      field("app / sdk", "\(env.appVersion) / \(env.sdkVersion)", nil),
      field("push token", env.deviceToken ?? "(none)", nil),
      field("time zone", "\(env.timeZone) s, DST \(env.dst ? "on" : "off")", nil),
      field("locale", "\(env.locale) / \(env.language)", nil),
      [
        label("  enabled", 14),
        (
          "\(flag("push", env.pushEnabled))  \(flag("quiet", env.quietPushEnabled))  \(flag("location", env.locationEnabled))  \(flag("proximity", env.proximityEnabled))",
          .normal
        ),
      ],
    ]
    if device.settings.platform == .iOS {
      lines.append(field("badge", env.badge.map(String.init) ?? "(none)", nil))
    }
    lines.append([
      label("  app state", 14),
      (device.appState.rawValue, device.appState == .background ? .warning : .normal),
    ])
    return lines
  }
}
