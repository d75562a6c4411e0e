import RegistrationCore
import SessionValues

extension Inspector {
  /// The whole screen for a model: a pure function, so a golden test can check any state.
  public static func view(_ model: InspectorModel) -> CellBuffer {
    var canvas = Canvas(
      buffer: CellBuffer(width: model.width, height: model.height), glyphs: model.glyphs)
    if model.isTooSmall {
      tooSmall(model, &canvas)
      return canvas.buffer
    }
    let layout = model.layout
    header(model, layout.header, &canvas)
    if model.screen == .fleet, let show = model.fleet {
      FleetPane.draw(model, show, &canvas)
      status(model, layout.status, &canvas)
      return canvas.buffer
    }
    if model.screen == .receiver {
      ReceiverPanes.draw(model, &canvas)
      status(model, layout.status, &canvas)
      overlay(model, &canvas)
      return canvas.buffer
    }
    let shown = layout.shownTab(focus: model.deviceScreen.focus)
    for pane in PaneID.allCases {
      guard let rect = layout.panes[pane] else { continue }
      if layout.tabbed.contains(pane) && pane != shown { continue }
      canvas.box(rect, title: title(pane, model, layout), focused: model.deviceScreen.focus == pane)
      Panes.draw(pane, model, rect, &canvas)
      if pane == .events, layout.tabbed.contains(pane) {
        // The tabs fill the title of a narrow screen: the events' state goes underneath.
        let state = " " + eventsState(model) + " "
        canvas.buffer.put(
          TextWidth.truncate(state, to: rect.width - 4, ellipsis: model.glyphs.ellipsis),
          x: rect.x + max(1, rect.width - TextWidth.of(state) - 2), y: rect.y + rect.height - 1,
          role: .dim)
      }
    }
    if let demo = model.demo, let rect = layout.caption {
      Panes.captions(
        demo, rect, &canvas, now: model.now, format: model.format,
        events: model.deviceScreen.events)
    }
    status(model, layout.status, &canvas)
    overlay(model, &canvas)
    return canvas.buffer
  }

  /// The panes whose content depends on the time in this model (countdowns, "… ago"): a tick
  /// paints only these. Each pane's own code says when it reads `now`; a test holds every
  /// pane left out to looking the same at any time.
  static func clockPanes(_ model: InspectorModel) -> Set<PaneID> {
    var panes: Set<PaneID> = [.throttle]
    if let device = model.device {
      if !device.state.pending.isEmpty { panes.insert(.pending) }
      if device.state.scheduler.retry != nil { panes.insert(.backoff) }
    }
    if let server = model.server, !server.waiting.isEmpty { panes.insert(.server) }
    return panes
  }

  /// Draws again, in place on `frame` (the view of this model at another time), what depends
  /// on the clock: the header and the clock's panes. Returns the runs of cells that changed.
  /// Nil, with `frame` untouched, when the whole view must be built: an overlay or an editor
  /// is open, or the size is not the frame's.
  public static func redrawClock(_ model: InspectorModel, in frame: inout CellBuffer)
    -> [CellRun]?
  {
    guard case .normal = model.mode, !model.isTooSmall, model.screen == .device,
      frame.width == model.width, frame.height == model.height,
      model.flash.map({ flashLines($0, width: model.width).count <= 1 }) ?? true
    else { return nil }
    let layout = model.layout
    let shown = layout.shownTab(focus: model.deviceScreen.focus)
    let clockPanes = clockPanes(model)
    let panes = PaneID.allCases.compactMap { pane -> (PaneID, Rect)? in
      guard clockPanes.contains(pane), let rect = layout.panes[pane],
        !layout.tabbed.contains(pane) || pane == shown
      else { return nil }
      return (pane, rect)
    }
    let saved = frame.saving([layout.header] + panes.map(\.1))
    // The canvas takes the frame over while it paints, so the cells are not copied.
    var canvas = Canvas(buffer: frame, glyphs: model.glyphs)
    frame = CellBuffer(width: 0, height: 0)
    header(model, layout.header, &canvas)
    for (pane, rect) in panes {
      canvas.buffer.fill(rect, role: .normal)
      canvas.box(rect, title: title(pane, model, layout), focused: model.deviceScreen.focus == pane)
      Panes.draw(pane, model, rect, &canvas)
    }
    frame = canvas.buffer
    return frame.changes(since: saved)
  }

  static func title(_ pane: PaneID, _ model: InspectorModel, _ layout: Layout) -> String {
    if layout.tabbed.contains(pane) {
      return layout.tabbed.map { tab in
        tab == pane ? "\(tab.rawValue) \(tab.title)" : "\(tab.rawValue) \(tab.title.lowercased())"
      }.joined(separator: " · ")
    }
    return "\(pane.rawValue) \(pane.title)" + (pane == .events ? " (\(eventsState(model)))" : "")
  }

  /// "following", "3 newer below", "filter: sports, following".
  static func eventsState(_ model: InspectorModel) -> String {
    var parts: [String] = []
    if !model.deviceScreen.eventFilter.isEmpty {
      parts.append("filter: \(TerminalText.escaped(model.deviceScreen.eventFilter))")
    }
    parts.append(
      model.deviceScreen.eventsBack == 0
        ? "following" : "\(model.deviceScreen.eventsBack) newer below")
    return parts.joined(separator: ", ")
  }

  static func header(_ model: InspectorModel, _ rect: Rect, _ canvas: inout Canvas) {
    HeaderText.make(model).draw(rect, &canvas)
  }

  public static func formatRate(_ rate: Double) -> String {
    NumberText.compact(rate)
  }

  static func status(_ model: InspectorModel, _ rect: Rect, _ canvas: inout Canvas) {
    canvas.buffer.fill(rect, role: .normal)
    switch model.mode {
    case .commandLine(let line):
      input(": ", line, rect, &canvas)
      return
    case .filter(let line):
      input("/ ", line, rect, &canvas)
      return
    default: break
    }
    if let flash = model.flash {
      // A message wider than the bar goes on over the rows above it, never cut.
      let lines = flashLines(flash, width: rect.width)
      for (index, text) in lines.enumerated() {
        let y = rect.y - (lines.count - 1) + index
        canvas.buffer.fill(Rect(x: 0, y: y, width: rect.width, height: 1), role: .normal)
        canvas.buffer.put(
          " " + text, x: 0, y: y, role: flash.isError ? .error : .success, limit: rect.width)
      }
      return
    }
    var x = 1
    for (key, shown) in KeyTable.hints(
      model.keyContext, on: model.screen, abilities: model.abilities)
    {
      // With --step, Space takes the demo on rather than pausing it.
      let stepping = model.demo.map { $0.stepByStep && !$0.finished } ?? false
      let hint =
        key == "Space" && stepping
        ? "next" : key == "x" && model.demo?.showsExpressions == true ? "words" : shown
      let width = TextWidth.of(key) + TextWidth.of(hint) + 3
      if x + width > rect.width { break }
      x += canvas.buffer.put(key, x: x, y: rect.y, role: .keyName)
      x += canvas.buffer.put(" " + hint + "  ", x: x, y: rect.y, role: .keyHint)
    }
  }

  /// A message's rows at this width: one, or as many as it needs up to three.
  static func flashLines(_ flash: InspectorModel.Flash, width: Int) -> [String] {
    let lines = TextWidth.wrap(TerminalText.escaped(flash.text), width: max(1, width - 2))
    return lines.count <= 3
      ? lines
      : Array(lines.prefix(2)) + [
        TextWidth.truncate(lines[2...].joined(separator: " "), to: width - 2)
      ]
  }

  static func input(_ prompt: String, _ line: LineEditor, _ rect: Rect, _ canvas: inout Canvas) {
    let text = TerminalText.escaped(line.text)
    canvas.buffer.put(prompt, x: 0, y: rect.y, role: .keyName)
    canvas.buffer.put(
      text, x: prompt.count, y: rect.y, role: .input, limit: rect.width - prompt.count - 1)
    let cursorX = prompt.count + TextWidth.of(String(line.text.prefix(line.cursor)))
    if cursorX < rect.width {
      let under = cursorX - prompt.count < text.count ? canvas.buffer[cursorX, rect.y].text : " "
      canvas.buffer.put(under.isEmpty ? " " : under, x: cursorX, y: rect.y, role: .selection)
    }
  }

  static func tooSmall(_ model: InspectorModel, _ canvas: inout Canvas) {
    let lines = [
      "too small: need \(InspectorModel.minimumWidth)x\(InspectorModel.minimumHeight)",
      "this terminal is \(model.width)x\(model.height)",
      "q quits",
    ]
    for (index, line) in lines.enumerated() {
      let y = model.height / 2 - 1 + index
      canvas.buffer.put(
        line, x: max(0, (model.width - line.count) / 2), y: y, role: index == 0 ? .warning : .normal
      )
    }
  }

  // MARK: Overlays

  static func overlay(_ model: InspectorModel, _ canvas: inout Canvas) {
    switch model.mode {
    case .help: help(model, &canvas)
    case .attributes(let editor): attributeEditor(editor, &canvas, model)
    case .tags(let editor): tagEditor(editor, &canvas, model)
    case .contactKey(let editor): contactKeyEditor(editor, &canvas, model)
    default: break
    }
  }

  static func dialog(
    _ model: InspectorModel, width: Int, height: Int, title: String, _ canvas: inout Canvas,
    margin: Int = 2
  ) -> Rect {
    let w = min(width, model.width - 2 * margin)
    let h = min(height, model.height - 2)
    let rect = Rect(
      x: (model.width - w) / 2, y: max(1, (model.height - h) / 2), width: w, height: h)
    canvas.buffer.fill(rect, role: .normal)
    canvas.box(rect, title: title, focused: true)
    return rect
  }

  static func help(_ model: InspectorModel, _ canvas: inout Canvas) {
    let (rows, width, columns) = helpRows(model)
    let rect = dialog(
      model, width: width, height: rows.count + 2,
      title: rows.count > model.height - 4 ? "Keys (j k scroll, Esc closes)" : "Keys (Esc closes)",
      &canvas, margin: columns == 1 ? 2 : 1)
    // A short screen scrolls the keys, saying where it is on the bottom border.
    ReceiverPanes.scrolled(rows, in: rect, &canvas, start: model.helpScroll, unit: "lines")
  }

  /// The help's rows as drawn (the columns side by side, then the commands), the dialog's
  /// width and how many columns: what the view draws and what the keys scroll over.
  static func helpRows(_ model: InspectorModel) -> (rows: [Line], width: Int, columns: Int) {
    let bindings = KeyTable.help(on: model.screen, abilities: model.abilities)
    let abilities = model.abilities
    let commands =
      !abilities.contains(.unscripted)
      ? nil
      : abilities.contains(.device)
        ? "Commands: tag add TAG, attr set KEY VALUE, contact-key set KEY, server fail 503 times 3"
        : abilities.contains(.localServer)
          ? "Commands: server fail 503 times 3, server down, server up" : nil
    // The keys' column as wide as the widest keys, so none is cut.
    let keyWidth = max(6, (bindings.map { TextWidth.of($0.keysLabel) }.max() ?? 0) + 1)
    // One column when it fits; two side by side on a short screen. A description wider than
    // its column goes on under itself rather than being cut; so do the commands.
    var width = min(model.width - 4, 80)
    var split = [helpLines(bindings, keyWidth: keyWidth, width: width - 3).flatMap { $0 }]
    var footer = commands.map { TextWidth.wrap($0, width: width - 3) } ?? []
    func count(_ columns: [[Line]], _ footer: [String]) -> Int {
      (columns.map(\.count).max() ?? 0) + (footer.isEmpty ? 0 : footer.count + 1)
    }
    if count(split, footer) > model.height - 4 {
      width = model.width - 2
      split = halves(helpLines(bindings, keyWidth: keyWidth, width: (width - 2) / 2 - 1))
      footer = commands.map { TextWidth.wrap($0, width: width - 3) } ?? []
    }
    let columnWidth = (width - 2) / split.count
    var rows: [Line] = (0..<(split.map(\.count).max() ?? 0)).map { row in
      split.enumerated().flatMap { column, lines -> Line in
        let line = row < lines.count ? lines[row] : []
        guard column < split.count - 1 else { return line }
        let used = TextWidth.of(line.map(\.0).joined())
        return line + [(String(repeating: " ", count: max(0, columnWidth - used)), .normal)]
      }
    }
    if !footer.isEmpty { rows.append([]) }
    rows += footer.map { [(" " + $0, .dim)] }
    return (rows, width, split.count)
  }

  /// Two columns of the bindings' lines, as even as they come without splitting a binding.
  static func halves(_ groups: [[Line]]) -> [[Line]] {
    let total = groups.reduce(0) { $0 + $1.count }
    var best = (index: 0, tallest: Int.max)
    var before = 0
    for index in 0...groups.count {
      let tallest = max(before, total - before)
      if tallest < best.tallest { best = (index, tallest) }
      if index < groups.count { before += groups[index].count }
    }
    return [
      groups[..<best.index].flatMap { $0 }, groups[best.index...].flatMap { $0 },
    ]
  }

  /// Each binding's keys, then its description wrapped to `width`, what follows indented
  /// under the first line.
  static func helpLines(_ bindings: [KeyBinding], keyWidth: Int, width: Int) -> [[Line]] {
    bindings.map { binding -> [Line] in
      let keys = binding.keysLabel
      let shown = " " + TextWidth.column(keys, keyWidth)
      let wrapped = TextWidth.wrap(binding.help, width: max(10, width - keyWidth - 1))
      return wrapped.enumerated().map { index, text in
        [
          (index == 0 ? shown : String(repeating: " ", count: keyWidth + 1), .keyName),
          (text, .normal),
        ]
      }
    }
  }
}
