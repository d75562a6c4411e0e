import RegistrationCore
import SessionValues

/// The tag editor: the app's tags to add or remove, the SDK's own shown locked (R2.7).
public struct TagEditor: Sendable, Hashable {
  public var tags: [String]
  public let locked: [String]
  public var selected = 0
  public var input = LineEditor()
  public var problem: String?

  public init(tags: Set<String>, locked: [String]) {
    self.tags = tags.sorted()
    self.locked = locked
  }

  public var all: [String] { locked + tags }

  /// A key of the editor's table (`KeyTable`, `.tagEditor`) or, for any other key, the tag
  /// being typed. False when Enter, on an empty line, asks to apply.
  public mutating func handle(_ key: Key) -> Bool {
    problem = nil
    switch KeyTable.action(for: key, in: .tagEditor) {
    case .scrollUp: selected = max(0, selected - 1)
    case .scrollDown: selected = min(max(0, all.count - 1), selected + 1)
    case .remove:
      guard all.indices.contains(selected) else { return true }
      if selected < locked.count {
        problem = "\(all[selected]) is the SDK's own tag and cannot be removed (R2.7)"
      } else {
        tags.remove(at: selected - locked.count)
        selected = min(selected, max(0, all.count - 1))
      }
    case .confirm:
      guard !input.text.isEmpty else { return false }
      switch InputRules.tag(input.text) {
      case .failure(let rejection): problem = "tag \(rejection.reason) (\(rejection.rule))"
      case .success(let tag):
        if all.contains(tag) {
          problem = "tag \(tag) is already there"
        } else {
          tags.append(tag)
          tags.sort()
          input = LineEditor()
        }
      }
    default:
      _ = input.handle(key)
    }
    return true
  }

  public func edits(from current: Set<String>) -> [Edit] {
    let wanted = Set(tags)
    return current.subtracting(wanted).sorted().map { Edit.removeTag($0) }
      + wanted.subtracting(current).sorted().map { Edit.addTag($0) }
  }
}

extension Inspector {
  static func tags(_ key: Key, _ editor: inout TagEditor, _ model: inout InspectorModel)
    -> [InspectorEffect]
  {
    if KeyTable.action(for: key, in: .tagEditor) == .cancel {
      model.mode = .normal
      return []
    }
    if editor.handle(key) {
      model.mode = .tags(editor)
      return []
    }
    // Enter on an empty line: apply.
    model.mode = .normal
    let edits = editor.edits(from: model.device?.state.record.tags ?? [])
    return edits.isEmpty ? [] : [.runAll(edits.map(Command.edit))]
  }

  static func tagEditor(_ editor: TagEditor, _ canvas: inout Canvas, _ model: InspectorModel) {
    let rect = dialog(
      model, width: 60, height: min(editor.all.count + 8, 20),
      title: "Tags: an edited copy, applied on Enter", &canvas)
    let inner = rect.inner
    for (index, tag) in editor.all.enumerated().prefix(inner.height - 4) {
      let locked = index < editor.locked.count
      canvas.line(
        inner, index,
        [
          (index == editor.selected ? "›" : " ", .accent),
          (
            (locked ? model.glyphs.lock : " ") + TerminalText.escaped(tag),
            index == editor.selected ? .selection : locked ? .locked : .normal
          ),
          (locked ? "  the SDK's own, locked" : "", .dim),
        ])
    }
    canvas.line(
      inner, inner.height - 3,
      [(" add: ", .keyName), (TerminalText.escaped(editor.input.text) + "▏", .input)])
    if let problem = editor.problem {
      canvas.line(inner, inner.height - 2, [(" " + problem, .error)])
    }
    let hints = KeyTable.hints(.tagEditor).map { "\($0.key) \($0.hint)" }.joined(separator: "  ")
    canvas.line(inner, inner.height - 1, [(" " + hints, .keyHint)])
  }
}
