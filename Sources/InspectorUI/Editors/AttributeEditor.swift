import RegistrationCore
import SessionValues

/// The attribute grid (mitmproxy's grideditor): it edits a copy, checks every cell as it is
/// typed (R2.5, R2.6), and applies nothing until confirmed.
public struct AttributeEditor: Sendable, Hashable {
  public struct Row: Sendable, Hashable {
    public var key: LineEditor
    public var value: LineEditor
    /// The key this row had when the editor opened; nil for a new row.
    public var original: String?
  }

  public var rows: [Row]
  public var selected = 0
  public var editingValue = false
  public var removed: [String] = []

  public init(attributes: [String: String]) {
    rows = attributes.sorted { $0.key < $1.key }.map {
      Row(key: LineEditor($0.key), value: LineEditor($0.value), original: $0.key)
    }
    if rows.isEmpty { rows = [Row(key: LineEditor(), value: LineEditor(), original: nil)] }
  }

  /// What is wrong with a row, if anything, by the input rules.
  public func problem(_ row: Row) -> String? {
    if case .failure(let rejection) = InputRules.attributeKey(row.key.text) {
      return rejection.reason.hasPrefix("is") ? "key \(rejection.reason)" : rejection.reason
    }
    let key = InputRules.trimmed(row.key.text)
    let duplicates = rows.filter { InputRules.trimmed($0.key.text) == key }.count
    if duplicates > 1 { return "key \(key) appears twice" }
    return nil
  }

  public var isValid: Bool { rows.allSatisfy { problem($0) == nil || isBlank($0) } }

  func isBlank(_ row: Row) -> Bool {
    row.key.text.isEmpty && row.value.text.isEmpty && row.original == nil
  }

  /// The edits that turn `attributes` into what the grid shows.
  public func edits(from attributes: [String: String]) -> [Edit] {
    var edits: [Edit] = removed.map { .clearAttribute(key: $0) }
    for row in rows where !isBlank(row) {
      let key = InputRules.trimmed(row.key.text)
      if let original = row.original, original != key {
        edits.append(.clearAttribute(key: original))
      }
      let value = InputRules.trimmed(row.value.text)
      if attributes[key] != value || row.original != key {
        edits.append(.setAttribute(key: key, value: value))
      }
    }
    return edits
  }

  /// A key of the editor's table (`KeyTable`, `.attributeEditor`) or, for any other key, the
  /// text of the selected cell.
  public mutating func handle(_ key: Key) {
    switch KeyTable.action(for: key, in: .attributeEditor) {
    case .scrollUp: selected = max(0, selected - 1)
    case .scrollDown: selected = min(rows.count - 1, selected + 1)
    case .nextField: editingValue.toggle()
    case .add:
      rows.append(Row(key: LineEditor(), value: LineEditor(), original: nil))
      selected = rows.count - 1
      editingValue = false
    case .remove:
      guard rows.indices.contains(selected) else { return }
      if let original = rows[selected].original { removed.append(original) }
      rows.remove(at: selected)
      if rows.isEmpty { rows = [Row(key: LineEditor(), value: LineEditor(), original: nil)] }
      selected = min(selected, rows.count - 1)
    default:
      guard rows.indices.contains(selected) else { return }
      if editingValue {
        _ = rows[selected].value.handle(key)
      } else {
        _ = rows[selected].key.handle(key)
      }
    }
  }
}

extension Inspector {
  static func attributes(_ key: Key, _ editor: inout AttributeEditor, _ model: inout InspectorModel)
    -> [InspectorEffect]
  {
    switch KeyTable.action(for: key, in: .attributeEditor) {
    case .cancel:
      model.mode = .normal
      return []
    case .confirm:
      guard editor.isValid else {
        model.mode = .attributes(editor)
        return []
      }
      model.mode = .normal
      let edits = editor.edits(from: model.device?.state.record.attributes ?? [:])
      return edits.isEmpty ? [] : [.runAll(edits.map(Command.edit))]
    default:
      editor.handle(key)
      model.mode = .attributes(editor)
      return []
    }
  }

  static func attributeEditor(
    _ editor: AttributeEditor, _ canvas: inout Canvas, _ model: InspectorModel
  ) {
    let width = min(model.width - 2, 78)
    // A row's problem goes on beside it, or under it when the row has no room: never cut.
    var lines: [Line] = []
    for (index, row) in editor.rows.enumerated() {
      let selected = index == editor.selected
      let key = TerminalText.escaped(row.key.text)
      let value = TerminalText.escaped(row.value.text)
      let keyRole: StyleRole = selected && !editor.editingValue ? .selection : .normal
      let valueRole: StyleRole = selected && editor.editingValue ? .selection : .normal
      var segments: Line = [
        (selected ? "›" : " ", .accent),
        (
          TextWidth.truncate(key, to: 24).padding(toLength: 25, withPad: " ", startingAt: 0),
          keyRole
        ),
        (TextWidth.truncate(value, to: 30), valueRole),
      ]
      guard let problem = editor.problem(row), !editor.isBlank(row) else {
        lines.append(segments)
        continue
      }
      let used = segments.reduce(0) { $0 + TextWidth.of($1.0) }
      if used + 2 + TextWidth.of(problem) <= width - 2 {
        segments.append(("  " + problem, .error))
        lines.append(segments)
      } else {
        lines.append(segments)
        lines += TextWidth.wrap(problem, width: width - 6).map { [("   " + $0, .error)] }
      }
    }
    let rect = dialog(
      model, width: width, height: min(lines.count + 7, 20),
      title: "Attributes: an edited copy, applied on Enter", &canvas, margin: 1)
    let inner = rect.inner
    canvas.line(
      inner, 0,
      [(" key".padding(toLength: 26, withPad: " ", startingAt: 0), .dim), ("value", .dim)])
    for (index, line) in lines.prefix(inner.height - 4).enumerated() {
      canvas.line(inner, index + 1, line)
    }
    let hints = KeyTable.hints(.attributeEditor).map { "\($0.key) \($0.hint)" }.joined(
      separator: "  ")
    canvas.line(inner, inner.height - 1, [(" " + hints, .keyHint)])
    if !editor.isValid {
      canvas.line(
        inner, inner.height - 2, [(" fix the marked cells to apply (R2.5, R2.6)", .error)])
    }
  }
}
