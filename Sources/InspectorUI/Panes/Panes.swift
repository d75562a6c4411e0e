import Foundation
import RegistrationCore
import SessionValues

/// The seven panes, each a function of the model and its rectangle.
enum Panes {
  static func draw(_ pane: PaneID, _ model: InspectorModel, _ rect: Rect, _ canvas: inout Canvas) {
    let inner = rect.inner
    let offset = model.scroll[pane] ?? 0
    var lines: [Line]
    switch pane {
    case .record: lines = record(model)
    case .pending: lines = pending(model)
    case .throttle: lines = throttle(model)
    case .backoff: lines = backoff(model, width: inner.width)
    case .events: lines = []
    case .server: lines = server(model)
    case .payload: lines = payload(model)
    }
    if pane == .events {
      events(model, inner, &canvas)
      return
    }
    if lines.isEmpty { lines = [[("(nothing yet)", .dim)]] }
    let start = min(offset, max(0, lines.count - inner.height))
    for (row, segments) in lines.dropFirst(start).prefix(inner.height).enumerated() {
      canvas.line(inner, row, segments)
    }
    if lines.count > inner.height, inner.height > 0 {
      let more = "\(start + 1)-\(min(lines.count, start + inner.height))/\(lines.count)"
      canvas.buffer.put(
        " \(more) ", x: rect.x + rect.width - more.count - 4, y: rect.y + rect.height - 1,
        role: .dim)
    }
  }

  static func text(_ value: String) -> String { TerminalText.escaped(value) }

  static func label(_ name: String, _ width: Int = 12) -> Span {
    (TextWidth.column(name, width), .dim)
  }
}
