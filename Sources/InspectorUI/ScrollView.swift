/// Where a pane's lines are viewed from: held at one end (the newest, or the top) until the
/// user scrolls, then at the line they chose. Every scrolling pane keeps one, so the keys do
/// the same everywhere and what is drawn is what the keys moved.
public struct ScrollView: Sendable, Hashable {
  public enum End: Sendable, Hashable { case top, bottom }

  /// The end a pane shows until scrolled: the top of a list, the bottom of a timeline.
  public let end: End
  /// The first line shown once scrolled; nil while held at `end`.
  public private(set) var first: Int?
  /// Whether reaching `end` holds the view there again. A view that opens elsewhere (the QA
  /// checklist at its step) keeps the line it was scrolled to, the top included.
  public let releasesAtEnd: Bool

  public init(end: End, releasesAtEnd: Bool = true) {
    self.end = end
    self.releasesAtEnd = releasesAtEnd
  }

  /// The first line shown of `count`, in `height` rows: always a full pane when it can be.
  public func firstLine(count: Int, height: Int) -> Int {
    let last = max(0, count - height)
    guard let first else { return end == .top ? 0 : last }
    return min(max(0, first), last)
  }

  /// Moves the view by `delta` lines; reaching its end holds it there again (a timeline then
  /// follows new lines).
  public mutating func scroll(by delta: Int, count: Int, height: Int) {
    let last = max(0, count - height)
    let moved = min(max(0, firstLine(count: count, height: height) + delta), last)
    first = releasesAtEnd && moved == (end == .top ? 0 : last) ? nil : moved
  }

  public mutating func toTop(count: Int, height: Int) {
    scroll(by: -count, count: count, height: height)
  }

  public mutating func toBottom(count: Int, height: Int) {
    scroll(by: count, count: count, height: height)
  }

  /// Holds the view at `line` (a pane that opens somewhere in the middle, such as the QA
  /// checklist at its current step).
  public mutating func place(at line: Int) { first = max(0, line) }

  /// Back to the end it is held at (another device chosen).
  public mutating func reset() { first = nil }
}
