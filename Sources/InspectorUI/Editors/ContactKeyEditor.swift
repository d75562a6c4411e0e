import RegistrationCore
import SessionValues

/// The contact-key editor: checks as you type (R2.1, R2.2) and asks again before a generic key
/// (R2.4) or one that orphans a contact (R8.2, R8.3).
public struct ContactKeyEditor: Sendable, Hashable {
  public var input: LineEditor
  /// Warnings shown after a first Enter; a second Enter applies anyway.
  public var pendingWarnings: [Warning] = []
  /// Whether a key has been typed or Enter pressed: an empty key is not an error before the
  /// user has done anything.
  public var touched = false

  public init(current: String?) { input = LineEditor(current ?? "") }

  /// The problem to show now: none before the user has touched the key.
  public var shownProblem: String? { touched ? problem : nil }

  public var problem: String? {
    if case .failure(let rejection) = InputRules.contactKey(input.text) {
      return "contact key \(rejection.reason) (\(rejection.rule))"
    }
    return nil
  }
}

extension Inspector {
  static func contactKey(
    _ key: Key, _ editor: inout ContactKeyEditor, _ model: inout InspectorModel
  )
    -> [InspectorEffect]
  {
    switch KeyTable.action(for: key, in: .contactKeyEditor) {
    case .cancel:
      model.mode = .normal
      return []
    case .confirm:
      editor.touched = true
      guard editor.problem == nil else {
        model.mode = .contactKey(editor)
        return []
      }
      let edit = Edit.setContactKey(editor.input.text)
      let warnings = preview(edit, model).warnings.filter {
        $0.code == .genericContactKey || $0.code == .orphanRisk
      }
      if !warnings.isEmpty && editor.pendingWarnings != warnings {
        editor.pendingWarnings = warnings
        model.mode = .contactKey(editor)
        return []
      }
      model.mode = .normal
      return [.run(.edit(edit))]
    default:
      if editor.input.handle(key) {
        editor.pendingWarnings = []
        editor.touched = true
      }
      model.mode = .contactKey(editor)
      return []
    }
  }

  /// What the engine would answer, worked out from the snapshot by the same rules.
  static func preview(_ edit: Edit, _ model: InspectorModel) -> EditOutcome {
    guard let device = model.device else { return .unchanged(reason: "not launched") }
    return device.machine.preview(edit, now: model.now)
  }

  static func contactKeyEditor(
    _ editor: ContactKeyEditor, _ canvas: inout Canvas, _ model: InspectorModel
  ) {
    // Warnings wrap to the dialog's width rather than being cut at its edge.
    let textWidth = min(76, model.width - 4) - 3
    let warnings = editor.pendingWarnings.map {
      TextWidth.wrap(TerminalText.escaped($0.message) + " (\($0.rule))", width: textWidth)
    }
    let warningLines = warnings.reduce(0) { $0 + $1.count }
    let rect = dialog(
      model, width: 76, height: 9 + warningLines, title: "Contact key", &canvas)
    let inner = rect.inner
    canvas.line(
      inner, 0, [(" key: ", .keyName), (TerminalText.escaped(editor.input.text) + "▏", .input)])
    canvas.line(
      inner, 1, [(" trimmed, 1 to 100 characters; can change, never be cleared (R2.1-R2.3)", .dim)])
    if let problem = editor.shownProblem {
      canvas.line(inner, 3, [(" " + problem, .error)])
    }
    for (index, line) in warnings.joined().enumerated() {
      canvas.line(inner, 3 + index, [(" " + line, .warning)])
    }
    if !editor.pendingWarnings.isEmpty {
      canvas.line(
        inner, 4 + warningLines, [(" Enter again applies anyway; Esc cancels", .warning)])
    }
    let hints = KeyTable.hints(.contactKeyEditor).map { "\($0.key) \($0.hint)" }.joined(
      separator: "  ")
    canvas.line(inner, inner.height - 1, [(" " + hints, .keyHint)])
  }
}
