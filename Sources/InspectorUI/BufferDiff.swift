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
  public func changes(since previous: CellBuffer?) -> [CellRun] {
    let previous = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    var runs: [CellRun] = []
    for row in 0..<height {
      var column = 0
      while column < width {
        let index = row * width + column
        if let previous, previous.cells[index] == cells[index] {
          column += 1
          continue
        }
        let role = cells[index].role
        var run = CellRun(x: column, y: row, role: role, text: "", width: 0)
        while column < width {
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
