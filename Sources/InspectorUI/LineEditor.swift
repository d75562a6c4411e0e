/// One line of text being typed, with a cursor.
public struct LineEditor: Sendable, Hashable {
  public var text: String
  public var cursor: Int

  public init(_ text: String = "") {
    self.text = text
    cursor = text.count
  }

  /// Applies an editing key; returns false when the key is not an editing key.
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      let index = text.index(text.startIndex, offsetBy: cursor)
      text.insert(character, at: index)
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return true }
      let index = text.index(text.startIndex, offsetBy: cursor - 1)
      text.remove(at: index)
      cursor -= 1
    case .delete:
      guard cursor < text.count else { return true }
      text.remove(at: text.index(text.startIndex, offsetBy: cursor))
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(text.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = text.count
    case .control("u"):
      text = ""
      cursor = 0
    default: return false
    }
    return true
  }
}
