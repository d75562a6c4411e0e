import Foundation
import RegistrationCore
import SessionValues

/// The `:` command line: typed, recalled from its history, run; a contact key that is
/// generic or orphans a contact asks again first, as the editor does.
extension Inspector {
  static func commandLine(_ key: Key, _ line: inout LineEditor, _ model: inout InspectorModel)
    -> [InspectorEffect]
  {
    let action = KeyTable.action(for: key, in: .commandLine)
    switch action {
    case .cancel:
      model.mode = .normal
      return []
    case .confirm:
      let text = line.text.trimmingCharacters(in: .whitespaces)
      model.mode = .normal
      guard !text.isEmpty else { return [] }
      if model.commandHistory.last != text { model.commandHistory.append(text) }
      // As in `regctl shell`: help is the key table, the commands with it.
      if text == "help" || text == "?" {
        model.mode = .help
        return []
      }
      // A warning holds for the very next run of the same line only.
      let warned = model.commandWarned
      model.commandWarned = nil
      do {
        let command = try CommandParser.parse(text)
        if asksAgain(command, text, warned: warned, &model) { return [] }
        return [.run(command)]
      } catch {
        model.flash = InspectorModel.Flash(text: "\(text): \(error)", isError: true)
        return []
      }
    case .scrollUp, .scrollDown:
      guard !model.commandHistory.isEmpty else { return [] }
      let index: Int
      if action == .scrollUp {
        index = max(0, (model.historyIndex ?? model.commandHistory.count) - 1)
      } else {
        index = min(
          model.commandHistory.count, (model.historyIndex ?? model.commandHistory.count) + 1)
      }
      model.historyIndex = index
      line = LineEditor(index < model.commandHistory.count ? model.commandHistory[index] : "")
      model.mode = .commandLine(line)
      return []
    default:
      _ = line.handle(key)
      model.mode = .commandLine(line)
      return []
    }
  }

  /// `contact-key set KEY` that is generic (R2.4) or orphans a contact (R8.2, R8.3): not run
  /// the first time; the warning is said, and the same line run again applies it (`c`'s
  /// editor asks the same way).
  static func asksAgain(
    _ command: Command, _ text: String, warned: String?, _ model: inout InspectorModel
  ) -> Bool {
    guard case .edit(let edit) = command, case .setContactKey = edit else { return false }
    let warnings = preview(edit, model).warnings.filter {
      $0.code == .genericContactKey || $0.code == .orphanRisk
    }
    guard !warnings.isEmpty, warned != text else { return false }
    model.commandWarned = text
    let said = warnings.map { "\($0.message) (\($0.rule))" }.joined(separator: "; ")
    model.flash = InspectorModel.Flash(
      text: "not applied: \(said). Run it again to apply anyway (: then Up, Enter)",
      isError: true)
    return true
  }
}
