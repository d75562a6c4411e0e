/// What a cell means, not what colour it is: themes map roles to colours, and golden tests
/// read text without caring about either.
public enum StyleRole: String, CaseIterable, Sendable, Hashable {
  case normal
  case dim
  case header
  case title
  case titleFocused
  case border
  case borderFocused
  case changed
  case warning
  case error
  case success
  case accent
  case locked
  case selection
  case keyName
  case keyHint
  case countdown
  case input
}

public struct Rect: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  public var inner: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }
}

/// The screen as cells. Panes are functions that fill a rectangle of it; the ncurses backend
/// copies it to the terminal; tests compare its text with golden files.
public struct CellBuffer: Sendable, Equatable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

  /// Writes `text` from (x, y), clipped to `limit` columns (and the buffer). Control
  /// characters never reach a cell: they are shown as `?` (data is escaped before this; this
  /// is the last line of defence). Returns the columns used.
  @discardableResult
  public mutating func put(_ text: String, x: Int, y: Int, role: StyleRole, limit: Int? = nil)
    -> Int
  {
    guard y >= 0, y < height else { return 0 }
    let end = min(width, x + (limit ?? width))
    var column = x
    // Most of a frame is printable ASCII: one byte, one column, no grapheme breaking.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      for byte in text.utf8 {
        if column >= end { break }
        if column >= 0 { cells[y * width + column] = Cell(ascii: byte, role: role) }
        column += 1
      }
      return column - x
    }
    /// Puts one grapheme's cell (and the blank second column of a wide one); false when it
    /// no longer fits.
    func place(_ cell: Cell, width cellWidth: Int) -> Bool {
      // A scalar that takes no column has no cell: the terminal would draw the next one over it.
      if cellWidth == 0 { return true }
      if column + cellWidth > end { return false }
      if column >= 0 {
        cells[y * width + column] = cell
        if cellWidth == 2 { cells[y * width + column + 1] = Cell(text: "", role: role) }
      }
      column += cellWidth
      return true
    }
    // Scalar by scalar while every scalar is a grapheme of its own (box drawing, arrows,
    // accented letters): no grapheme breaking, no string per cell.
    if text.unicodeScalars.allSatisfy(TextWidth.standsAlone) {
      for scalar in text.unicodeScalars {
        guard place(Cell(scalar: scalar, role: role), width: TextWidth.of(scalar: scalar)) else {
          break
        }
      }
      return column - x
    }
    for character in text {
      let cellWidth = TextWidth.of(character)
      if cellWidth == 0 { continue }
      let shown = TextWidth.isControl(character) ? "?" : String(character)
      guard place(Cell(text: shown, role: role), width: cellWidth) else { break }
    }
    return column - x
  }

  /// Writes a one-column glyph (a border, a bar) `count` times from (x, y), clipped to the
  /// buffer: one cell made once, not a string per cell.
  public mutating func repeatGlyph(_ glyph: String, x: Int, y: Int, count: Int, role: StyleRole) {
    guard y >= 0, y < height, count > 0 else { return }
    guard glyph.count == 1, let character = glyph.first, TextWidth.of(character) == 1,
      !TextWidth.isControl(character)
    else {
      put(String(repeating: glyph, count: count), x: x, y: y, role: role)
      return
    }
    let cell = Cell(text: glyph, role: role)
    for column in max(0, x)..<max(max(0, x), min(width, x + count)) {
      cells[y * width + column] = cell
    }
  }

  public mutating func fill(_ rect: Rect, role: StyleRole) {
    for row in rect.y..<min(height, rect.y + rect.height) where row >= 0 {
      for column in rect.x..<min(width, rect.x + rect.width) where column >= 0 {
        cells[row * width + column] = Cell(ascii: 0x20, role: role)
      }
    }
  }

  public mutating func setRole(_ role: StyleRole, x: Int, y: Int, count: Int) {
    guard y >= 0, y < height else { return }
    for column in max(0, x)..<min(width, x + count) { cells[y * width + column].role = role }
  }

  /// Row `y` as text (wide characters once).
  public func line(_ y: Int) -> String {
    var text = ""
    for column in 0..<width { text += cells[y * width + column].text }
    return text
  }

  /// The whole screen as text, trailing spaces trimmed: what golden files hold.
  public var text: String {
    (0..<height).map { row in
      var line = self.line(row)
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}

/// Terminal columns a character takes, as wcwidth counts them (the rule terminals and tmux
/// lay text out by): 2 for East Asian wide and emoji presentation, 0 for combining marks
/// (Mn, Me) and format characters (Cf), 1 otherwise; a grapheme of several scalars takes the
/// sum. Data reaches the screen through `TerminalText.escaped`, which shows escaped whatever
/// a terminal draws at a width that cannot be known (joiners, selectors, flags), so the sum
/// is what the terminal draws.
public enum TextWidth {
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.index(after: scalars.startIndex) == scalars.endIndex { return of(scalar: first) }
    return scalars.reduce(0) { $0 + of(scalar: $1) }
  }

  /// The width of one scalar.
  static func of(scalar: Unicode.Scalar) -> Int {
    // The common cases without a Unicode property lookup (a frame measures thousands):
    // ASCII and Latin before the combining marks, box drawing, block elements, braille.
    switch scalar.value {
    case 0..<0x300, 0x2500...0x259F, 0x2800...0x28FF: return 1
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: return leadWidth(scalar)
    }
  }

  /// A grapheme's width from its first scalar.
  private static func leadWidth(_ first: Unicode.Scalar) -> Int {
    if first.properties.isEmojiPresentation { return 2 }
    switch first.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  public static func of(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
    // Scalar by scalar while every scalar is a grapheme of its own; grapheme by grapheme as
    // soon as one may join with its neighbours (marks, joiners, selectors, emoji, jamo).
    var total = 0
    for scalar in text.unicodeScalars {
      if scalar.value < 0x300 {
        total += 1
      } else if joinsNeighbours(scalar) {
        return text.reduce(0) { $0 + of($1) }
      } else {
        total += of(scalar: scalar)
      }
    }
    return total
  }

  /// True when `scalar` is a grapheme whatever surrounds it: text made only of these can be
  /// laid out scalar by scalar (controls are excluded: CR LF is one grapheme).
  static func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
    !joinsNeighbours(scalar) && scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value)
  }

  private static func joinsNeighbours(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x11FF, 0x200C...0x200D, 0xFE00...0xFE0F, 0x1F000...: return true
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  static func isControl(_ character: Character) -> Bool {
    character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }

  /// `text` as a column `width` wide: padded with spaces, and never running into the next
  /// column: a text as wide or wider keeps one space after it.
  public static func column(_ text: String, _ width: Int) -> String {
    let used = of(text)
    return text + String(repeating: " ", count: used < width ? width - used : 1)
  }

  /// `text` in lines of at most `width` columns, broken between words (a word wider than a
  /// line is broken inside).
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
      var word = word
      while of(word) > width {
        if !line.isEmpty {
          lines.append(line)
          line = ""
        }
        let head = truncate(word, to: width, ellipsis: "")
        lines.append(head)
        word = String(word.dropFirst(head.count))
      }
      if line.isEmpty {
        line = word
      } else if of(line) + 1 + of(word) <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = word
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// `text` cut to `width` columns, with an ellipsis when cut.
  public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    var result = ""
    var used = 0
    let room = width - of(ellipsis)
    if text.unicodeScalars.allSatisfy(standsAlone) {
      // Every scalar a grapheme of its own: no grapheme breaking (the header's title, each tick).
      for scalar in text.unicodeScalars {
        let next = of(scalar: scalar)
        if used + next > room { break }
        result.unicodeScalars.append(scalar)
        used += next
      }
      return result + ellipsis
    }
    for character in text {
      let next = of(character)
      if used + next > room { break }
      result.append(character)
      used += next
    }
    return result + ellipsis
  }
}
