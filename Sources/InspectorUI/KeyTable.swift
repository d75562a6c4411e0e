/// The one key table: the status bar and the help overlay are drawn from it, and key presses
/// are looked up in it, so they can never disagree.
public enum KeyTable {
  /// The bindings of a context; for the normal context, those of one screen's table.
  public static func bindings(_ context: KeyContext, on screen: InspectorModel.Screen = .device)
    -> [KeyBinding]
  {
    switch context {
    case .normal: normal.filter { $0.screens.contains(screen) }
    case .commandLine:
      [
        KeyBinding(keys: [.enter], action: .confirm, hint: "run", help: "Run the command"),
        KeyBinding(
          keys: [.escape], action: .cancel, hint: "cancel", help: "Leave the command line"),
        KeyBinding(
          [(.up, .scrollUp), (.down, .scrollDown)], hint: "history", help: "Earlier commands"),
      ]
    case .filter:
      [
        KeyBinding(keys: [.enter], action: .confirm, hint: "keep", help: "Keep the filter"),
        KeyBinding(keys: [.escape], action: .cancel, hint: "clear", help: "Clear the filter"),
      ]
    case .help:
      [
        KeyBinding(
          keys: [.escape, .character("?"), .character("q")], action: .back, hint: "close",
          help: "Close the help"),
        KeyBinding(
          [
            (.up, .scrollUp), (.down, .scrollDown), (.character("k"), .scrollUp),
            (.character("j"), .scrollDown), (.pageUp, .pageUp), (.pageDown, .pageDown),
          ], hint: nil, help: "Scroll the keys when they do not all fit"),
      ]
    case .attributeEditor:
      [
        KeyBinding(
          [(.up, .scrollUp), (.down, .scrollDown)], hint: "row", help: "Move between rows"),
        KeyBinding(
          keys: [.tab], action: .nextField, hint: "key/value", help: "Switch between key and value"),
        KeyBinding(keys: [.control("n")], action: .add, hint: "new", help: "Add a row"),
        KeyBinding(
          keys: [.control("d")], action: .remove, hint: "delete",
          help: "Delete the row (clears the attribute)"),
        KeyBinding(
          keys: [.enter], action: .confirm, hint: "apply",
          help: "Apply every change (each cell must be valid)"),
        KeyBinding(keys: [.escape], action: .cancel, hint: "cancel", help: "Discard the changes"),
      ]
    case .tagEditor:
      [
        KeyBinding(
          [(.up, .scrollUp), (.down, .scrollDown)], hint: "move", help: "Move between tags"),
        KeyBinding(
          keys: [.control("d"), .delete], action: .remove, hint: "remove",
          help: "Remove the tag (the SDK's own are locked)"),
        KeyBinding(
          keys: [.enter], action: .confirm, hint: "add/apply",
          help: "Add the typed tag, or apply when the line is empty"),
        KeyBinding(keys: [.escape], action: .cancel, hint: "cancel", help: "Discard the changes"),
      ]
    case .contactKeyEditor:
      [
        KeyBinding(
          keys: [.enter], action: .confirm, hint: "apply",
          help: "Apply (asks again when the key is generic or orphans a contact)"),
        KeyBinding(keys: [.escape], action: .cancel, hint: "cancel", help: "Discard"),
      ]
    case .tooSmall:
      [KeyBinding(keys: [.character("q")], action: .quit, hint: "quit", help: "Quit")]
    }
  }

  static let normal: [KeyBinding] = [
    // Ctrl-C is a key here (in the help, and obeyed when the terminal sends it as one); the
    // runtime also quits on SIGINT, which is the same quit.
    KeyBinding(keys: [.character("q")], action: .quit, hint: "quit", help: "Quit RegScope"),
    KeyBinding(keys: [.control("c")], action: .quit, hint: nil, help: "Quit, as q does"),
    KeyBinding(keys: [.character("?")], action: .help, hint: "help", help: "Show every key"),
    KeyBinding(
      keys: [.character(":")], action: .commandLine, hint: "command",
      help: "Type a command (see below)", needs: .unscripted,
      screens: [.device]),
    KeyBinding(
      keys: [.character(":")], action: .commandLine, hint: "command",
      help: "Type a command (see below)",
      needs: [.unscripted, .localServer], screens: [.receiver]),
    KeyBinding(
      keys: [.character("a")], action: .editAttributes, hint: "attrs", help: "Edit attributes",
      needs: .device),
    KeyBinding(
      keys: [.character("t")], action: .editTags, hint: "tags", help: "Edit tags", needs: .device),
    KeyBinding(
      keys: [.character("c")], action: .editContactKey, hint: "contact key",
      help: "Set the contact key", needs: .device),
    KeyBinding(
      keys: [.character("n")], action: .jumpToDeadline, hint: "jump",
      help: "Jump to the next deadline", needs: .clockControl),
    KeyBinding(
      keys: [.character(" ")], action: .pauseResume, hint: "pause", help: "Pause or resume time",
      needs: .clockControl),
    KeyBinding(
      [(.character("+"), .faster), (.character("-"), .slower)], hint: nil,
      help: "Faster or slower: 1x, 10x, 60x, 600x, 3600x", needs: .clockControl),
    KeyBinding(
      keys: [.character("x")], action: .toggleExpressions, hint: "expressions",
      help: "Demo: show the checks as the scenario's expressions, or in words", needs: .demo,
      screens: [.device]),
    KeyBinding(
      keys: [.character("e")], action: .fail503, hint: "503x3",
      help: "Server: answer 503 to the next 3 registrations", needs: .localServer),
    KeyBinding(
      keys: [.character("w")], action: .fail429, hint: nil,
      help: "Server: answer 429 with Retry-After 120 s, once", needs: .localServer),
    KeyBinding(
      keys: [.character("h")], action: .hang, hint: nil,
      help: "Server: hang past the client's time-out, once", needs: .localServer),
    KeyBinding(
      keys: [.character("d")], action: .toggleDown, hint: "down/up",
      help: "Server: down (refusing connections) or up", needs: .localServer),
    KeyBinding(
      keys: [.character("f")], action: .toggleAppState, hint: nil,
      help: "App to the background or foreground", needs: .device),
    KeyBinding(
      keys: [.character("R")], action: .restart, hint: nil,
      help: "Kill and relaunch the app", needs: .device),
    KeyBinding(
      keys: [.character("/")], action: .filter, hint: nil, help: "Filter the events",
      screens: [.device]),
    KeyBinding(
      [(.tab, .focusNext), (.backTab, .focusPrevious)], hint: nil,
      help: "Next pane, previous pane"),
    KeyBinding(
      PaneID.allCases.map { ($0.key, .focus($0)) }, hint: nil, help: "Go to that pane",
      screens: [.device], label: "1-7"),
    KeyBinding(
      ReceiverScreen.Pane.allCases.map { ($0.key, .focusReceiver($0)) }, hint: nil,
      help: "Go to that pane: devices, timeline, findings, body", screens: [.receiver],
      label: "1-4"),
    KeyBinding(
      [
        (.up, .scrollUp), (.character("k"), .scrollUp), (.down, .scrollDown),
        (.character("j"), .scrollDown),
      ], hint: nil, help: "Scroll (k and j too)",
      screens: [.device], label: "Up Down"),
    KeyBinding(
      [(.pageUp, .pageUp), (.pageDown, .pageDown)], hint: nil, help: "Page up or down",
      screens: [.device]),
    KeyBinding(
      [(.character("g"), .top), (.character("G"), .bottom)], hint: nil,
      help: "Top or bottom (events: follow the tail)", screens: [.device]),
    KeyBinding(
      keys: [.up, .character("k")], action: .scrollUp, hint: nil,
      help: "Devices: the one above; other panes: scroll up", screens: [.receiver]),
    KeyBinding(
      keys: [.down, .character("j")], action: .scrollDown, hint: nil,
      help: "Devices: the one below; other panes: scroll down", screens: [.receiver]),
    KeyBinding(
      [(.pageUp, .pageUp), (.pageDown, .pageDown)], hint: nil,
      help: "Devices: 5 up or down; other panes: a page", screens: [.receiver]),
    KeyBinding(
      [(.character("g"), .top), (.character("G"), .bottom)], hint: nil,
      help: "Devices: the first or last; other panes: top or bottom", screens: [.receiver]),
    KeyBinding(keys: [.character("T")], action: .cycleTheme, hint: nil, help: "Next colour theme"),
    // A simulation: on a receiver's screen it would stand under "receiving on ... relayed
    // to ..." as if it were the apps' traffic.
    KeyBinding(
      keys: [.character("F")], action: .fleet, hint: nil,
      help: "Fleet view: the strategies on many simulated devices", screens: [.device, .fleet]),
    KeyBinding(
      keys: [.character("W")], action: .fieldsToggle, hint: nil,
      help: "Fields: why each of the chosen device's fields did or did not arrive (or back)",
      screens: [.receiver]),
    KeyBinding(
      keys: [.character("D")], action: .refreshDemographics, hint: nil,
      help: "Demographics: read the tenant's again now (--tenant)", needs: .localServer,
      screens: [.receiver]),
    KeyBinding(
      keys: [.character("B")], action: .writeBundle, hint: "bundle",
      help: "Bundle: write the chosen device's debug bundle (a zip for the ticket)",
      needs: .localServer, screens: [.receiver]),
    KeyBinding(
      keys: [.character("Q")], action: .qaChecklist, hint: nil,
      help: "QA: show or hide the plan's checklist", needs: .qaRun, screens: [.receiver]),
    // One Enter on this screen: with a field shown it opens or closes its story; with none,
    // in a QA run, it goes on after an ask (`Inspector.openField` decides, and says why).
    KeyBinding(
      keys: [.enter], action: .openField, hint: nil,
      help: "Fields (W): open or close the chosen field's story; after a QA ask, go on",
      screens: [.receiver]),
    KeyBinding(
      keys: [.character("[")], action: .qaPreviousStep, hint: nil,
      help: "QA: open the step before (its evidence)", needs: .qaRun, screens: [.receiver]),
    KeyBinding(
      keys: [.character("]")], action: .qaNextStep, hint: nil,
      help: "QA: open the step after", needs: .qaRun, screens: [.receiver]),
    KeyBinding(
      keys: [.escape], action: .back, hint: nil, help: "Back: clear the filter, follow the tail",
      screens: [.device]),
    KeyBinding(
      keys: [.escape], action: .back, hint: nil, help: "Back to the session's screen",
      screens: [.fleet]),
    KeyBinding(
      keys: [.escape], action: .back, hint: nil,
      help: "Back: from a field's story to the fields, from the fields to the body",
      screens: [.receiver]),
  ]

  /// The binding for `key` in `context` on `screen`, if the table has one.
  public static func binding(
    for key: Key, in context: KeyContext, on screen: InspectorModel.Screen = .device
  ) -> KeyBinding? {
    bindings(context, on: screen).first { $0.keys.contains(key) }
  }

  /// The action for `key` in `context` on `screen`: the one the table gives it, if any.
  public static func action(
    for key: Key, in context: KeyContext, on screen: InspectorModel.Screen = .device
  ) -> Action? {
    binding(for: key, in: context, on: screen)?.action(for: key)
  }

  /// The status bar's hints for a context: `q quit  ? help  : command ...`.
  public static func hints(
    _ context: KeyContext, on screen: InspectorModel.Screen = .device,
    abilities: SessionAbilities = .all
  ) -> [(key: String, hint: String)] {
    bindings(context, on: screen).filter { $0.isEnabled(abilities) }.compactMap { binding in
      binding.hint.map { (binding.keys.map(\.label).joined(separator: "/"), $0) }
    }
  }

  /// The keys that work here, for the `?` overlay: the screen's table less what the session
  /// cannot do.
  public static func help(on screen: InspectorModel.Screen, abilities: SessionAbilities)
    -> [KeyBinding]
  {
    bindings(.normal, on: screen).filter { $0.isEnabled(abilities) }
  }
}
