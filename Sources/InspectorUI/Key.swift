/// A key press, as the backend decodes it.
public enum Key: Hashable, Sendable {
  case character(Character)
  case enter
  case escape
  case tab
  case backTab
  case up
  case down
  case left
  case right
  case home
  case end
  case pageUp
  case pageDown
  case backspace
  case delete
  case control(Character)
  case function(Int)

  /// How the help and the status bar name it.
  public var label: String {
    switch self {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .enter: "Enter"
    case .escape: "Esc"
    case .tab: "Tab"
    case .backTab: "S-Tab"
    case .up: "Up"
    case .down: "Down"
    case .left: "Left"
    case .right: "Right"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .backspace: "Bksp"
    case .delete: "Del"
    case .control(let character): "^\(character.uppercased())"
    case .function(let number): "F\(number)"
    }
  }
}
