import Foundation
import RegistrationCore
import Session
import SessionValues
import Testing

@testable import InspectorUI

@Suite("the render path writes only what changed")
struct BufferDiffTests {
  /// `runs` written over `screen`, as a backend would.
  static func applying(_ runs: [CellRun], to screen: CellBuffer) -> CellBuffer {
    var screen = screen
    for run in runs { screen.put(run.text, x: run.x, y: run.y, role: run.role) }
    return screen
  }

  @Test("no frame on screen: every cell is written; the same frame again: nothing")
  func wholeAndNothing() {
    var buffer = CellBuffer(width: 20, height: 3)
    buffer.put("hello", x: 2, y: 1, role: .title)
    let runs = buffer.changes(since: nil)
    #expect(runs.reduce(0) { $0 + $1.width } == 60)
    #expect(Self.applying(runs, to: CellBuffer(width: 20, height: 3)) == buffer)
    #expect(buffer.changes(since: buffer).isEmpty)
    // Another size is another screen: written whole.
    #expect(buffer.changes(since: CellBuffer(width: 19, height: 3)).count == runs.count)
  }

  @Test("saved rectangles, even ones past the edge, report what was painted over them")
  func savedRectangles() {
    var buffer = CellBuffer(width: 12, height: 4)
    buffer.put("abcdefghijkl", x: 0, y: 1, role: .normal)
    let rects = [Rect(x: 9, y: 1, width: 10, height: 5), Rect(x: -3, y: 0, width: 5, height: 2)]
    let saved = buffer.saving(rects)
    let before = buffer
    buffer.put("XY", x: 10, y: 1, role: .normal)
    buffer.put("Z", x: 1, y: 1, role: .warning)
    let runs = buffer.changes(since: saved)
    #expect(runs == buffer.changes(since: before, within: rects))
    #expect(runs.map(\.text) == ["XY", "Z"])
    #expect(Self.applying(runs, to: before) == buffer)
  }

  @Test("one changed cell is one run of one cell; a style change alone is a change")
  func oneCell() {
    var before = CellBuffer(width: 10, height: 2)
    before.put("0:59", x: 3, y: 1, role: .countdown)
    var after = before
    after.put("0:58", x: 3, y: 1, role: .countdown)
    #expect(
      after.changes(since: before) == [CellRun(x: 6, y: 1, role: .countdown, text: "8", width: 1)])
    var restyled = before
    restyled.setRole(.error, x: 3, y: 1, count: 1)
    #expect(restyled.changes(since: before).map(\.width) == [1])
  }

  @Test("a wide character is written with its second column")
  func wide() {
    let before = CellBuffer(width: 6, height: 1)
    var after = before
    after.put("a中b", x: 0, y: 0, role: .normal)
    let runs = after.changes(since: before)
    #expect(runs.map(\.text) == ["a中b"])
    #expect(runs.map(\.width) == [4])
    #expect(Self.applying(runs, to: before) == after)
  }

  @Test("a countdown's next second rewrites a handful of cells of a real 200x60 screen")
  func countdownTick() async throws {
    var model = try await model(
      width: 200, height: 60, until: 30, [(0, "tag add sports"), (1, "attr set FIRST_NAME Ada")])
    let before = Inspector.view(model)
    _ = Inspector.update(&model, .clock(now: model.now + 1))
    let after = Inspector.view(model)
    let runs = after.changes(since: before)
    let written = runs.reduce(0) { $0 + $1.width }
    #expect(written > 0 && written < 200, "wrote \(written) cells")
    #expect(Self.applying(runs, to: before) == after)
  }
}

@Suite("a clock tick repaints only what depends on the time")
struct ClockRedrawTests {
  @Test(
    "redrawing the clock's panes onto the last frame gives exactly the whole view",
    arguments: [(120, 40), (80, 24), (200, 60)])
  func sameAsWholeView(size: (Int, Int)) async throws {
    var setup = SessionSetup()
    setup.processingDelay = 300
    var model = try await model(
      width: size.0, height: size.1, setup: setup, until: 70,
      before: ["server fail 503 times 1"],
      [(0, "tag add sports"), (65, "attr set FIRST_NAME Ada")])
    for focus in [PaneID.record, .server, .events] {
      model.deviceScreen.focus = focus
      var frame = Inspector.view(model)
      for _ in 0..<5 {
        let revision = model.revision
        _ = Inspector.update(&model, .clock(now: model.now + 7))
        #expect(model.revision == revision)
        var redrawn = frame
        let runs = try #require(Inspector.redrawClock(model, in: &redrawn))
        let whole = Inspector.view(model)
        #expect(redrawn == whole, "\(size) focus \(focus) at \(model.now)")
        // The runs it returns are exactly what turns the old frame into the new one.
        #expect(BufferDiffTests.applying(runs, to: frame) == whole)
        let byPlace = { (a: CellRun, b: CellRun) in (a.y, a.x) < (b.y, b.x) }
        #expect(runs.sorted(by: byPlace) == whole.changes(since: frame).sorted(by: byPlace))
        frame = whole
      }
    }
    // Anything else is a new revision, and an open overlay needs the whole view.
    let revision = model.revision
    _ = Inspector.update(&model, .key(.character("?")))
    #expect(model.revision != revision)
    var open = Inspector.view(model)
    #expect(Inspector.redrawClock(model, in: &open) == nil)
    #expect(open == Inspector.view(model))
  }
}

@Suite("the panes a tick leaves alone")
struct TimelessPaneTests {
  @Test(
    "a pane outside the clock's set looks the same at any later time, in every state",
    arguments: [0.5, 30, 64, 66, 70, 130, 400])
  func timeless(at: Double) async throws {
    var setup = SessionSetup()
    setup.processingDelay = 300
    var model = try await model(
      width: 200, height: 60, setup: setup, until: at, before: ["server fail 503 times 1"],
      [(0, "tag add sports"), (65, "attr set FIRST_NAME Ada")].filter { $0.0 <= at })
    let clockPanes = Inspector.clockPanes(model)
    let layout = Layout.make(
      width: model.width, height: model.height, focus: model.deviceScreen.focus)
    let before = Inspector.view(model)
    for later in [1.0, 7, 61, 3_601, 90_000] {
      _ = Inspector.update(&model, .clock(now: Instant(at + later)))
      let after = Inspector.view(model)
      for pane in PaneID.allCases where !clockPanes.contains(pane) {
        guard let rect = layout.panes[pane] else { continue }
        #expect(
          after.changes(since: before, within: [rect]).isEmpty,
          "pane \(pane) changed \(later) s after \(at) though not in the clock's set")
      }
    }
  }
}

@Suite("text width")
struct TextWidthTests {
  @Test(
    "a string's width is the sum of its graphemes' widths, whatever path measures it",
    arguments: [
      "plain", "Zoë", "e\u{301}te", "東京 tower", "app 0e7b → the local server", "👨‍👩‍👧 family",
      "🇫🇷", "⌚", "⌚\u{FE0E}", "한국어", "\u{1100}\u{1161}\u{11A8}", "─┐│", "a\u{20DD}b",
      "⣿⣀", "Ω≈ç√", "tab\there",
    ])
  func sumOfGraphemes(text: String) {
    #expect(TextWidth.of(text) == text.reduce(0) { $0 + TextWidth.of($1) })
    // Cut at every width: whole graphemes that fit, then the ellipsis.
    for width in 1...TextWidth.of(text) + 1 {
      var kept = ""
      for character in text {
        guard TextWidth.of(kept) + TextWidth.of(character) <= width - 1 else { break }
        kept.append(character)
      }
      let expected = TextWidth.of(text) <= width ? text : kept + "…"
      #expect(TextWidth.truncate(text, to: width) == expected, "\(text) to \(width)")
    }
  }
}
