import Foundation
import RegistrationCore
import SessionValues

/// 2 Pending changes: the queue, oldest first.
extension Panes {
  static func pending(_ model: InspectorModel) -> [Line] {
    guard let device = model.device else { return [] }
    let inFlight = device.inFlight?.coveredSeq ?? 0
    var lines: [Line] = device.state.pending.map { change in
      let seconds = max(0, model.now - change.firstAt).rounded(.down)
      let age = seconds < 1 ? "just now" : DurationText.describe(seconds) + " ago"
      let sending = change.seq <= inFlight ? " (on the wire)" : ""
      return [
        (TextWidth.column(age, 13), .dim),
        (text(change.summary) + sending, change.seq <= inFlight ? .dim : .normal),
      ]
    }
    if lines.isEmpty { lines = [[("nothing pending", .dim)]] }
    return lines
  }
}
