import Foundation
import RegistrationCore
import Session

/// 7 Payload: the last registration sent, changes marked.
extension Panes {
  static func payload(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    // After a restart, or for an imported device, the stored acknowledged registration.
    guard let last = model.lastPayloads.last ?? model.device?.state.lastAcknowledged?.payload
    else {
      return [[("no registration sent yet", .dim)]]
    }
    let previous = Set(
      model.lastPayloads.previous.map { $0.prettyBody().split(separator: "\n").map(String.init) }
        ?? [])
    var lines: [[(String, StyleRole)]] = []
    if model.lastPayloads.previous == nil {
      lines.append([("the first registration sent", .dim)])
    } else {
      lines.append([("+ marks what changed since the send before", .dim)])
    }
    for line in last.prettyBody().split(separator: "\n").map(String.init) {
      let changed = model.lastPayloads.previous != nil && !previous.contains(line)
      lines.append([((changed ? "+ " : "  ") + text(line), changed ? .changed : .normal)])
    }
    return lines
  }
}
