/// Box drawing and symbols, in Unicode or plain ASCII (when the terminal's locale is not UTF-8).
public struct Glyphs: Sendable, Hashable {
  public var horizontal: String
  public var vertical: String
  public var topLeft: String
  public var topRight: String
  public var bottomLeft: String
  public var bottomRight: String
  public var lock: String
  public var arrow: String
  public var bullet: String
  public var check: String
  public var cross: String
  public var rungDone: String
  public var rungCurrent: String
  public var rungAhead: String
  public var ellipsis: String

  public static let unicode = Glyphs(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
    bottomRight: "┘", lock: "⚿", arrow: "→", bullet: "•", check: "✓", cross: "✗", rungDone: "■",
    rungCurrent: "▶", rungAhead: "□", ellipsis: "…")

  public static let ascii = Glyphs(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
    bottomRight: "+", lock: "#", arrow: "->", bullet: "*", check: "ok", cross: "x",
    rungDone: "#", rungCurrent: ">", rungAhead: ".", ellipsis: ">")
}
