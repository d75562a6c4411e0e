import Foundation
import RegistrationCore
import SessionValues

/// 7 Payload: the last registration sent, changes marked.
extension Panes {
  static func payload(_ model: InspectorModel) -> [Line] {
    // After a restart, or for an imported device, the stored acknowledged registration.
    guard
      let last = model.deviceScreen.sentBodies.last ?? model.deviceScreen.acknowledgedBody?.lines
    else {
      return [[("no registration sent yet", .dim)]]
    }
    let previous = model.deviceScreen.sentBodies.previous.map(Set.init)
    var lines: [Line] = []
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
