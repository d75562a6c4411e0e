/// What a backend must write to turn the frame on the screen into the next one: runs of
/// changed cells that share a style (ratatui's `Buffer::diff`). With no previous frame, or one
/// of another size, every cell is in a run.
public struct CellRun: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var role: StyleRole
  /// The cells' text, wide characters once.
  public var text: String
  /// Columns covered.
  public var width: Int
}

/// The cells of some rectangles of a frame, kept before they are painted again in place: a
/// clock redraw compares against these instead of a copy of the whole frame.
public struct SavedCells: Sendable {
  fileprivate let width: Int
  fileprivate let height: Int
  fileprivate let rects: [Rect]
  /// Row-major, rectangle after rectangle (clipped to the frame).
  fileprivate let cells: [Cell]
}

extension CellBuffer {
  /// `within`: only these rectangles can have changed (a clock redraw), so only they are
  /// compared; nil compares the whole frame.
  public func changes(since previous: CellBuffer?, within rects: [Rect]? = nil) -> [CellRun] {
    guard let previous, previous.width == width, previous.height == height else {
      return changes(in: fullFrame) { _, _ in nil }
    }
    return (rects ?? [fullFrame]).flatMap { rect in
      changes(in: rect) { row, column in previous.cells[row * width + column] }
    }
  }

  /// Keeps what `rects` hold now, to compare with after painting them again.
  public func saving(_ rects: [Rect]) -> SavedCells {
    var kept: [Cell] = []
    for rect in rects {
      let (columns, rows) = clipped(rect)
      for row in rows {
        kept.append(
          contentsOf: cells[(row * width + columns.lowerBound)..<(row * width + columns.upperBound)]
        )
      }
    }
    return SavedCells(width: width, height: height, rects: rects, cells: kept)
  }

  /// What changed in the saved rectangles since they were saved.
  public func changes(since saved: SavedCells) -> [CellRun] {
    guard saved.width == width, saved.height == height else { return changes(since: nil) }
    var runs: [CellRun] = []
    var start = 0
    for rect in saved.rects {
      let (columns, rows) = clipped(rect)
      let base = start
      runs += changes(in: rect) { row, column in
        saved.cells[base + (row - rows.lowerBound) * columns.count + column - columns.lowerBound]
      }
      start += columns.count * rows.count
    }
    return runs
  }

  private var fullFrame: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  private func clipped(_ rect: Rect) -> (columns: Range<Int>, rows: Range<Int>) {
    let left = min(width, max(0, rect.x))
    let top = min(height, max(0, rect.y))
    return (
      left..<max(left, min(width, rect.x + rect.width)),
      top..<max(top, min(height, rect.y + rect.height))
    )
  }

  /// `before(row, column)`: the cell there on the screen now, nil when unknown.
  private func changes(in rect: Rect, before: (Int, Int) -> Cell?) -> [CellRun] {
    var runs: [CellRun] = []
    let (columns, rows) = clipped(rect)
    for row in rows {
      var column = columns.lowerBound
      while column < columns.upperBound {
        if before(row, column) == cells[row * width + column] {
          column += 1
          continue
        }
        let role = cells[row * width + column].role
        var run = CellRun(x: column, y: row, role: role, text: "", width: 0)
        while column < columns.upperBound {
          let cell = cells[row * width + column]
          guard cell.role == role, before(row, column) != cell else { break }
          run.text += cell.text
          column += 1
        }
        run.width = column - run.x
        runs.append(run)
      }
    }
    return runs
  }
}
