import RegistrationCore

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

  public mutating func handle(_ key: Key) {
    switch key {
    case .up: selected = max(0, selected - 1)
    case .down: selected = min(rows.count - 1, selected + 1)
    case .tab: editingValue.toggle()
    case .control("n"):
      rows.append(Row(key: LineEditor(), value: LineEditor(), original: nil))
      selected = rows.count - 1
      editingValue = false
    case .control("d"):
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

  public mutating func handle(_ key: Key) -> Bool {
    problem = nil
    switch key {
    case .up: selected = max(0, selected - 1)
    case .down: selected = min(max(0, all.count - 1), selected + 1)
    case .control("d"), .delete:
      guard all.indices.contains(selected) else { return true }
      if selected < locked.count {
        problem = "\(all[selected]) is the SDK's own tag and cannot be removed (R2.7)"
      } else {
        tags.remove(at: selected - locked.count)
        selected = min(selected, max(0, all.count - 1))
      }
    case .enter:
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

/// The contact-key editor: checks as you type (R2.1, R2.2) and asks again before a generic key
/// (R2.4) or one that orphans a contact (R8.2, R8.3).
public struct ContactKeyEditor: Sendable, Hashable {
  public var input: LineEditor
  /// Warnings shown after a first Enter; a second Enter applies anyway.
  public var pendingWarnings: [Warning] = []

  public init(current: String?) { input = LineEditor(current ?? "") }

  public var problem: String? {
    if case .failure(let rejection) = InputRules.contactKey(input.text) {
      return "contact key \(rejection.reason) (\(rejection.rule))"
    }
    return nil
  }
}
