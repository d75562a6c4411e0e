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

extension CellBuffer {
  /// `within`: only these rectangles can have changed (a clock redraw), so only they are
  /// compared; nil compares the whole frame.
  public func changes(since previous: CellBuffer?, within rects: [Rect]? = nil) -> [CellRun] {
    let previous = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    guard let rects, previous != nil else { return changes(since: previous, in: fullFrame) }
    return rects.flatMap { changes(since: previous, in: $0) }
  }

  private var fullFrame: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  private func changes(since previous: CellBuffer?, in rect: Rect) -> [CellRun] {
    var runs: [CellRun] = []
    let (left, right) = (max(0, rect.x), min(width, rect.x + rect.width))
    for row in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.y + rect.height)) {
      var column = left
      while column < right {
        let index = row * width + column
        if let previous, previous.cells[index] == cells[index] {
          column += 1
          continue
        }
        let role = cells[index].role
        var run = CellRun(x: column, y: row, role: role, text: "", width: 0)
        while column < right {
          let cell = cells[row * width + column]
          guard cell.role == role, previous.map({ $0.cells[row * width + column] != cell }) ?? true
          else { break }
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
