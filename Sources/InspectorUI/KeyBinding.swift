/// One line of the table: its keys, each with the one action it does (a line may list two
/// keys in opposite directions, Page Up and Page Down), and how help and hints show them.
public struct KeyBinding: Sendable {
  public var actions: [(key: Key, action: Action)]
  /// Shown in the status bar when set (short).
  public var hint: String?
  /// Shown in the `?` overlay.
  public var help: String
  /// What the session must offer for the key to work.
  public var needs: SessionAbilities
  /// The screens whose table holds it: elsewhere the key is neither shown nor obeyed.
  public var screens: Set<InspectorModel.Screen>
  /// How the help names its keys when not one by one ("1-7").
  public var label: String?

  /// Keys that all do one thing.
  public init(
    keys: [Key], action: Action, hint: String?, help: String, needs: SessionAbilities = [],
    screens: Set<InspectorModel.Screen> = [.device, .receiver, .fleet]
  ) {
    self.init(keys.map { ($0, action) }, hint: hint, help: help, needs: needs, screens: screens)
  }

  /// Keys that each do their own thing, listed on one line.
  public init(
    _ actions: [(key: Key, action: Action)], hint: String?, help: String,
    needs: SessionAbilities = [],
    screens: Set<InspectorModel.Screen> = [.device, .receiver, .fleet], label: String? = nil
  ) {
    self.actions = actions
    self.hint = hint
    self.help = help
    self.needs = needs
    self.screens = screens
    self.label = label
  }

  public var keys: [Key] { actions.map(\.key) }

  /// The keys as the help names them: "q", "Tab S-Tab", "1-7".
  public var keysLabel: String { label ?? keys.map(\.label).joined(separator: " ") }

  /// What `key` does here, if it is one of the binding's keys.
  public func action(for key: Key) -> Action? { actions.first { $0.key == key }?.action }

  /// Whether the binding works in a session with these abilities.
  public func isEnabled(_ abilities: SessionAbilities) -> Bool { abilities.isSuperset(of: needs) }
}

public enum KeyContext: Sendable, Hashable {
  case normal
  case commandLine
  case filter
  case help
  case attributeEditor
  case tagEditor
  case contactKeyEditor
  case tooSmall
}
