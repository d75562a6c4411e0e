/// Where each pane goes for a screen size: three columns when there is room, two otherwise,
/// with Events, Server and Payload sharing one tabbed area.
public struct Layout: Sendable {
  public var header: Rect
  public var status: Rect
  public var panes: [PaneID: Rect]
  /// The panes sharing one area in the compact layout (only the focused or first is drawn).
  public var tabbed: [PaneID]
  /// A demo's caption area, above the status bar.
  public var caption: Rect?

  public static func make(
    width: Int, height: Int, focus: PaneID, captionRows: Int = 0, headerRows: Int = 1
  ) -> Layout {
    let header = Rect(x: 0, y: 0, width: width, height: headerRows)
    let status = Rect(x: 0, y: height - 1, width: width, height: 1)
    let top = headerRows
    let body = height - 1 - headerRows - captionRows
    let caption =
      captionRows > 0
      ? Rect(x: 0, y: height - 1 - captionRows, width: width, height: captionRows) : nil
    var panes: [PaneID: Rect] = [:]
    if width >= 120 && height >= 36 {
      let columnA = width * 33 / 100
      let columnB = width * 27 / 100
      let columnC = width - columnA - columnB
      let recordHeight = body * 60 / 100
      panes[.record] = Rect(x: 0, y: top, width: columnA, height: recordHeight)
      panes[.pending] = Rect(
        x: 0, y: top + recordHeight, width: columnA, height: body - recordHeight)
      panes[.throttle] = Rect(x: columnA, y: top, width: columnB, height: 6)
      panes[.backoff] = Rect(x: columnA, y: top + 6, width: columnB, height: 9)
      panes[.server] = Rect(x: columnA, y: top + 15, width: columnB, height: body - 15)
      let eventsHeight = body * 60 / 100
      panes[.events] = Rect(x: columnA + columnB, y: top, width: columnC, height: eventsHeight)
      panes[.payload] = Rect(
        x: columnA + columnB, y: top + eventsHeight, width: columnC, height: body - eventsHeight)
      return Layout(
        header: header, status: status, panes: panes, tabbed: [], caption: caption)
    }
    let left = width / 2
    let right = width - left
    let recordHeight = body * 55 / 100
    panes[.record] = Rect(x: 0, y: top, width: left, height: recordHeight)
    panes[.pending] = Rect(x: 0, y: top + recordHeight, width: left, height: body - recordHeight)
    panes[.throttle] = Rect(x: left, y: top, width: right, height: 5)
    panes[.backoff] = Rect(x: left, y: top + 5, width: right, height: 7)
    let shared = Rect(x: left, y: top + 12, width: right, height: body - 12)
    let tabbed: [PaneID] = [.events, .server, .payload]
    for pane in tabbed { panes[pane] = shared }
    return Layout(
      header: header, status: status, panes: panes, tabbed: tabbed, caption: caption)
  }

  /// Which of the tabbed panes is on show.
  public func shownTab(focus: PaneID) -> PaneID {
    tabbed.contains(focus) ? focus : .events
  }
}

/// Drawing helpers shared by the panes.
struct Canvas {
  var buffer: CellBuffer
  let glyphs: Glyphs

  mutating func box(_ rect: Rect, title: String, focused: Bool) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let role: StyleRole = focused ? .borderFocused : .border
    let g = glyphs
    let (left, right) = (rect.x, rect.x + rect.width - 1)
    let (top, bottom) = (rect.y, rect.y + rect.height - 1)
    for (y, start, end) in [(top, g.topLeft, g.topRight), (bottom, g.bottomLeft, g.bottomRight)] {
      buffer.put(start, x: left, y: y, role: role)
      buffer.repeatGlyph(g.horizontal, x: left + 1, y: y, count: rect.width - 2, role: role)
      buffer.put(end, x: right, y: y, role: role)
    }
    for row in (top + 1)..<bottom {
      buffer.repeatGlyph(g.vertical, x: left, y: row, count: 1, role: role)
      buffer.repeatGlyph(g.vertical, x: right, y: row, count: 1, role: role)
    }
    let label = " " + TextWidth.truncate(title, to: rect.width - 6, ellipsis: glyphs.ellipsis) + " "
    buffer.put(label, x: rect.x + 2, y: rect.y, role: focused ? .titleFocused : .title)
  }

  /// Writes styled segments on one line inside `rect`; a line too long for it ends in an
  /// ellipsis, so a cut is never mistaken for the whole value.
  mutating func line(_ rect: Rect, _ row: Int, _ segments: Line) {
    guard row >= 0, row < rect.height, rect.width > 0 else { return }
    var x = rect.x
    let end = rect.x + rect.width
    var clipped = false
    for (text, role) in segments {
      guard x < end else {
        clipped = clipped || !text.isEmpty
        break
      }
      let used = buffer.put(text, x: x, y: rect.y + row, role: role, limit: end - x)
      if used < TextWidth.of(text) { clipped = true }
      x += used
    }
    if clipped {
      buffer.put(
        glyphs.ellipsis, x: end - TextWidth.of(glyphs.ellipsis), y: rect.y + row, role: .dim)
    }
  }
}
