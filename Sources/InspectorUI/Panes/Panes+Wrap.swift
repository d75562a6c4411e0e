import Foundation

/// A status pane's lines fitted to its width.
extension Panes {
  /// Lines wider than `width` broken between words, what follows indented by `indent` columns:
  /// a pane's hints and rules are read whole, not cut off with "…" (a word wider than the
  /// pane is still cut when drawn). Each word keeps its colour.
  static func wrapped(_ lines: [Line], width: Int, indent: Int = 2) -> [Line] {
    guard width >= 12, width > indent + 8 else { return lines }
    return lines.flatMap { line -> [Line] in
      guard line.reduce(0, { $0 + TextWidth.of($1.0) }) > width else { return [line] }
      var result: [Line] = []
      var current: Line = []
      var used = 0
      for (text, role) in line {
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false)
          .enumerated()
        {
          var piece = (index == 0 ? "" : " ") + word
          let wide = TextWidth.of(piece)
          if used + wide > width, used > indent, !word.isEmpty {
            // A change's sign ("+ tags a") goes on with its words.
            let sign = current.last.flatMap { last in
              ["+", "-", "~"].contains(last.0.trimmingCharacters(in: .whitespaces)) ? last : nil
            }
            if sign != nil { current.removeLast() }
            result.append(current)
            piece =
              String(repeating: " ", count: indent)
              + (sign.map { $0.0.trimmingCharacters(in: .whitespaces) + " " } ?? "") + word
            current = []
            used = 0
          }
          current.append((piece, role))
          used += TextWidth.of(piece)
        }
      }
      if !current.isEmpty { result.append(current) }
      return result
    }
  }
}
