import Foundation
import RegistrationCore
import Session
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
