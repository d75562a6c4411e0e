/// A table fitted to a pane: headings over columns two spaces apart, each column as wide as
/// its widest cell when there is room; when there is not, the widest columns are narrowed
/// first, never below their longest heading word, and columns marked `droppable` go from the
/// right when even that does not fit. A heading or cell wider than its column wraps inside
/// it: nothing is cut.
struct FittedTable {
  struct Column {
    var heading: String
    /// Narrowest the column gets before a droppable column goes (the heading's longest word
    /// is the floor anyway).
    var minimum = 1
    var droppable = false
  }

  var columns: [Column]
  /// Each row's cells, one per column, with their roles.
  var rows: [[Span]]

  /// Columns between columns.
  static let gap = 2

  /// The columns shown and their widths in `width` columns, after a two-column margin (the
  /// cursor's) and `gap` between columns.
  func fitted(width: Int) -> (shown: [Int], widths: [Int]) {
    var shown = Array(columns.indices)
    func floor(_ index: Int) -> Int {
      max(
        columns[index].minimum,
        columns[index].heading.split(separator: " ").map { TextWidth.of(String($0)) }.max() ?? 0)
    }
    func natural(_ index: Int) -> Int {
      max(
        TextWidth.of(columns[index].heading), rows.map { TextWidth.of($0[index].0) }.max() ?? 0)
    }
    func room(_ shown: [Int]) -> Int { width - 2 - Self.gap * max(0, shown.count - 1) }
    // A droppable column goes before the others are narrowed.
    while shown.map(natural).reduce(0, +) > room(shown),
      let last = shown.lastIndex(where: { columns[$0].droppable })
    {
      shown.remove(at: last)
    }
    var widths = shown.map(natural)
    let floors = shown.map(floor)
    while widths.reduce(0, +) > room(shown) {
      let narrowable = widths.indices.filter { widths[$0] > floors[$0] }
      guard let widest = narrowable.max(by: { widths[$0] < widths[$1] }) else { break }
      widths[widest] -= 1
    }
    return (shown, widths)
  }

  /// The heading lines, then each row's lines (its first line carries `marks[row]`, the
  /// cursor's two columns), and the line each row starts at.
  func lines(width: Int, headingRole: StyleRole, marks: [Span]) -> (
    lines: [Line], rowStarts: [Int]
  ) {
    let (shown, widths) = fitted(width: width)
    var lines = block(
      shown.map { (columns[$0].heading, headingRole) }, widths: widths, mark: ("  ", .normal))
    var starts: [Int] = []
    for (index, row) in rows.enumerated() {
      starts.append(lines.count)
      lines += block(shown.map { row[$0] }, widths: widths, mark: marks[index])
    }
    return (lines, starts)
  }

  /// One row's cells side by side, each wrapped to its column; as many lines as its
  /// tallest cell.
  func block(_ cells: [Span], widths: [Int], mark: Span) -> [Line] {
    let wrapped = zip(cells, widths).map { cell, width in
      cell.0.isEmpty ? [""] : TextWidth.wrap(cell.0, width: max(1, width))
    }
    let height = wrapped.map(\.count).max() ?? 1
    return (0..<height).map { row in
      var line: Line = [(row == 0 ? mark : ("  ", mark.1))]
      for (column, (cell, width)) in zip(cells, widths).enumerated() {
        let text = row < wrapped[column].count ? wrapped[column][row] : ""
        let last = column == cells.count - 1
        line.append(
          (
            last
              ? text
              : text + String(repeating: " ", count: max(0, width - TextWidth.of(text)) + Self.gap),
            cell.1
          ))
      }
      return line
    }
  }
}
