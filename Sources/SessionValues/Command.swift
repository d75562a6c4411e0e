import RegistrationCore

/// One command of the command language (DESIGN.md), shared by scenario steps, `regctl shell`
/// and the inspector's `:` line.
public enum Command: Hashable, Sendable {
  case launch
  /// A process death and relaunch: state comes back only from the store.
  case restart
  case foreground
  case background
  /// The app opens its inbox: the SDK fetches it, as its version asks (SDK-FACTS).
  case inbox
  case edit(Edit)
  case server(ServerCommand)
}

public enum ServerCommand: Hashable, Sendable {
  /// Answer `status` for the next `times` requests (or until `duration` passes, or until
  /// `server up`), with Retry-After when given.
  case fail(status: Int, times: Int?, retryAfter: Double?, duration: Double?)
  case down
  case up
  case hang
  case drop
  case defineAttribute(String)
}

extension Command: CustomStringConvertible {
  /// The command as it would be typed, values quoted when they need it.
  public var description: String {
    switch self {
    case .launch: return "launch"
    case .restart: return "restart"
    case .foreground: return "foreground"
    case .background: return "background"
    case .inbox: return "inbox"
    case .edit(let edit):
      switch edit {
      case .setContactKey(let key): return "contact-key set \(CommandWords.quote(key))"
      case .clearContactKey: return "contact-key clear"
      case .setAttribute(let key, let value):
        return "attr set \(CommandWords.quote(key)) \(CommandWords.quote(value ?? ""))"
      case .clearAttribute(let key): return "attr clear \(CommandWords.quote(key))"
      case .addTag(let tag): return "tag add \(CommandWords.quote(tag))"
      case .removeTag(let tag): return "tag remove \(CommandWords.quote(tag))"
      case .setSystem(let field, let value):
        return "system set \(field.rawValue) \(CommandWords.quote(value))"
      }
    case .server(let command):
      switch command {
      case .fail(let status, let times, let retryAfter, let duration):
        var text = "server fail \(status)"
        if let times { text += " times \(times)" }
        if let retryAfter { text += " retry-after \(NumberText.compact(retryAfter))" }
        if let duration { text += " for \(NumberText.compact(duration))s" }
        return text
      case .down: return "server down"
      case .up: return "server up"
      case .hang: return "server hang"
      case .drop: return "server drop"
      case .defineAttribute(let key): return "server define-attribute \(CommandWords.quote(key))"
      }
    }
  }
}
