import Foundation
import RegistrationCore
import SessionValues

/// 5 Events: the event stream, filtered and scrolled.
extension Panes {
  static func events(_ model: InspectorModel, _ inner: Rect, _ canvas: inout Canvas) {
    let visible = model.deviceScreen.visibleEvents
    guard inner.height > 0 else { return }
    if visible.isEmpty {
      canvas.line(
        inner, 0,
        [
          (
            model.deviceScreen.eventFilter.isEmpty
              ? "(no events yet)" : "(no event matches the filter)", .dim
          )
        ])
      return
    }
    let end = max(0, visible.count - model.deviceScreen.eventsBack)
    let start = max(0, end - inner.height)
    for (row, shown) in visible[start..<end].enumerated() {
      let event = shown.event
      let role: StyleRole
      switch event.kind {
      case .warning, .orphaned, .inputRejected: role = .warning
      case .failed: role = .error
      case .sent: role = .success
      case .serverProcessed:
        if case .server(.rejected) = event.body { role = .error } else { role = .normal }
      default: role = .normal
      }
      canvas.line(
        inner, row,
        [
          (shown.time + " ", .dim),
          (
            TextWidth.column(event.type, 15),
            role == .normal ? .accent : role
          ),
          (shown.detail, role),
        ])
    }
  }
}
