import Foundation
import RegistrationCore
import Session

/// 7 Payload: the last registration sent, changes marked.
extension Panes {
  static func payload(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    // After a restart, or for an imported device, the stored acknowledged registration.
    guard let last = model.sentBodies.last ?? model.acknowledgedBody?.lines else {
      return [[("no registration sent yet", .dim)]]
    }
    let previous = model.sentBodies.previous.map(Set.init)
    var lines: [[(String, StyleRole)]] = []
    if previous == nil {
      lines.append([("the first registration sent", .dim)])
    } else {
      lines.append([("+ marks what changed since the send before", .dim)])
    }
    for line in last {
      let changed = previous.map { !$0.contains(line) } ?? false
      lines.append([((changed ? "+ " : "  ") + text(line), changed ? .changed : .normal)])
    }
    return lines
  }
}

/// A registration body as the Payload pane shows it: keys sorted, one per line.
enum ReadableJSON {
  static func lines(_ bytes: [UInt8]) -> [String] {
    let data = Data(bytes)
    guard let object = try? JSONSerialization.jsonObject(with: data),
      let pretty = try? JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init) }
    return String(decoding: pretty, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}
