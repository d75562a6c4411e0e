import Foundation
import RegistrationCore
import SessionValues

/// The seven panes, each a function of the model and its rectangle.
enum Panes {
  static func draw(_ pane: PaneID, _ model: InspectorModel, _ rect: Rect, _ canvas: inout Canvas) {
    let inner = rect.inner
    if pane == .events {
      events(model, inner, &canvas)
      return
    }
    let lines = laidOut(pane, model)?.lines ?? []
    let start = model.deviceScreen.views[pane, default: ScrollView(end: .top)].firstLine(
      count: lines.count, height: inner.height)
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

  /// A pane where the layout puts it, with its lines at that width: what the view draws and
  /// what the keys scroll over, so both see one length and one page.
  static func laidOut(_ pane: PaneID, _ model: InspectorModel) -> LaidOutPane? {
    guard let rect = model.layout.panes[pane] else { return nil }
    return LaidOutPane(rect: rect, lines: lines(pane, model, width: rect.inner.width))
  }

  /// A pane's lines at this width (the events pane draws its own tail).
  static func lines(_ pane: PaneID, _ model: InspectorModel, width: Int) -> [Line] {
    let lines: [Line] =
      switch pane {
      case .record: record(model)
      case .pending: pending(model)
      case .throttle: wrapped(throttle(model), width: width)
      case .backoff: wrapped(backoff(model, width: width), width: width)
      case .events: []
      case .server: wrapped(server(model), width: width)
      case .payload: payload(model)
      }
    return lines.isEmpty ? [[("(nothing yet)", .dim)]] : lines
  }

  static func text(_ value: String) -> String { TerminalText.escaped(value) }

  static func label(_ name: String, _ width: Int = 12) -> Span {
    (TextWidth.column(name, width), .dim)
  }
}

/// A scrolling pane as laid out: its box, and the lines it holds at the box's width.
struct LaidOutPane {
  let rect: Rect
  let lines: [Line]
  /// The rows it shows: the box less its border.
  var height: Int { rect.inner.height }
}
