import RegistrationCore

/// The header: the title on the left (where the session goes), the SDK, the clock, the speed
/// and the state on the right. On one row when it fits (the brand first to go); when it does
/// not, the title goes on over a second row, broken after one of its separators (" → ",
/// " · ", ", ") or between words, so nothing is cut where a wider screen would show it.
struct HeaderText: Equatable {
  /// The title's text on each row (the first row's also holds `right`).
  var left: [String]
  var right: String

  /// Widest the clock is shown (`12:00:00`, `123:00:00` into a long run), so that the rows
  /// do not change as it moves: a tick repaints the header in place.
  static let clockReserve = 9

  static func make(_ model: InspectorModel) -> HeaderText {
    let capture = model.jobScreen == .receiver && !model.receiverLive
    let speed = capture ? "" : model.paused ? "paused  " : "\(Inspector.formatRate(model.rate))x  "
    let state =
      capture
      ? "captured, read-only"
      : model.jobScreen == .receiver
        ? "receiving" : model.device?.appState.rawValue ?? "not launched"
    // The title may say it already ("receiving on ...", "capture: FILE (read-only)"): then
    // the state is the first thing to go, after the brand.
    let said =
      (capture && model.title.contains("read-only"))
      || (model.jobScreen == .receiver && model.title.hasPrefix("receiving"))
    let sdk = model.device.map { "sdk \($0.settings.profile.spelled)  " } ?? ""
    // A live clock that wakes once a minute shows no seconds it would leave standing still.
    let minutesOnly = model.timeStyle == .wallClock && !model.paused && !model.ticksEverySecond
    let time = model.clock(model.now)
    let clock = minutesOnly ? String(time.prefix(5)) : time
    let title =
      model.glyphs.arrow == "→"
      ? model.title
      : model.title.split(separator: "→", omittingEmptySubsequences: false)
        .joined(separator: model.glyphs.arrow)
    let width = model.width
    var right = ""
    var rightWidth = 0
    for (brand, stated) in [(" RegScope  ", true), (" ", true), (" ", !said)] {
      right = "\(sdk)\(clock)  \(speed)\(stated ? state : "")".trimmingTrailingSpaces + " "
      // The room the right side takes whatever the clock shows.
      rightWidth = TextWidth.of(right) - TextWidth.of(clock) + max(clockReserve, clock.count)
      if TextWidth.of(brand + title) + 1 + rightWidth <= width {
        return HeaderText(left: [brand + title], right: right)
      }
    }
    // Two rows: the brand and the right side, then the title under them; a title longer
    // than a row begins beside the brand.
    if TextWidth.of(title) + 1 <= width {
      return HeaderText(left: [" RegScope", " " + title], right: right)
    }
    let (first, rest) = split(title, room: max(0, width - rightWidth - 12), next: width - 4)
    return HeaderText(
      left: [
        " RegScope  " + first,
        TextWidth.truncate("   " + rest, to: width - 1, ellipsis: model.glyphs.ellipsis),
      ], right: right)
  }

  /// `title` in two: as much as fits in `room` columns, then the rest, which should fit in
  /// `next`. Broken after a separator (" → ", " · ", ", ") when that leaves a rest that
  /// fits, else at the last space that fits, else inside a word.
  static func split(_ title: String, room: Int, next: Int = .max) -> (String, String) {
    guard TextWidth.of(title) > room else { return (title, "") }
    let head = TextWidth.truncate(title, to: room, ellipsis: "")
    func cut(after range: Range<String.Index>) -> (String, String)? {
      let first = String(head[..<range.upperBound])
      let trimmed = first.trimmingTrailingSpaces
      return trimmed.isEmpty ? nil : (trimmed, String(title.dropFirst(first.count)))
    }
    for separator in [" → ", " · ", ", "] {
      guard let range = head.range(of: separator, options: .backwards),
        let parts = cut(after: range), TextWidth.of(parts.1) <= next
      else { continue }
      return parts
    }
    if let range = head.range(of: " ", options: .backwards), let parts = cut(after: range) {
      return parts
    }
    return (head, String(title.dropFirst(head.count)))
  }

  func draw(_ rect: Rect, _ canvas: inout Canvas) {
    canvas.buffer.fill(rect, role: .header)
    for (row, text) in left.enumerated() where row < rect.height {
      canvas.buffer.put(text, x: 0, y: rect.y + row, role: .header, limit: rect.width)
    }
    canvas.buffer.put(right, x: rect.width - TextWidth.of(right), y: rect.y, role: .header)
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
