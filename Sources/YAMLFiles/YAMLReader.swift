import RegistrationCore
import Yams

/// Reads RegScope's YAML files (scenarios, QA plans) node by node: every error names the file,
/// line and column and what was expected; unknown keys suggest the nearest known one; anchors
/// and aliases are refused before anything is composed (`YAMLAliases`).
public struct YAMLReader: Sendable {
  public init(source: String) { self.source = source }

  /// The document's root node; an empty file, or text that is not YAML, is an error that
  /// says where.
  public func compose(_ yaml: String, ifEmpty: String) throws(SourceError) -> Node {
    if let found = YAMLText.firstUnprintable(in: yaml) {
      throw SourceError(
        SourcePosition(file: source, line: found.line, column: found.column),
        "holds the control character U+\(found.code) where YAML allows none; is this a YAML file?")
    }
    if let use = YAMLAliases.firstUse(in: yaml) {
      throw SourceError(
        SourcePosition(file: source, line: use.line, column: use.column),
        YAMLAliases.message(alias: use.alias))
    }
    do {
      guard let node = try Yams.compose(yaml: yaml) else {
        throw SourceError(position(nil), "the file is empty; \(ifEmpty)")
      }
      return node
    } catch let error as SourceError {
      throw error
    } catch let error as YamlError {
      throw yamlError(error)
    } catch {
      throw SourceError(position(nil), "is not YAML: \(error)")
    }
  }

  public let source: String

  public func position(_ node: Node?) -> SourcePosition {
    let mark = node?.mark
    return SourcePosition(file: source, line: mark?.line ?? 1, column: mark?.column ?? 1)
  }

  public func yamlError(_ error: YamlError) -> SourceError {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return SourceError(
        SourcePosition(file: source, line: mark.line, column: mark.column),
        "is not valid YAML: \(YAMLText.bounded(problem))")
    case .reader(let problem, let offset, _, let yaml):
      // The position, never the line: a line may be megabytes long.
      let (line, column) = YAMLText.position(ofByte: offset ?? 0, in: yaml)
      return SourceError(
        SourcePosition(file: source, line: line, column: column),
        "is not valid YAML: \(YAMLText.bounded(problem))")
    case .duplicatedKeysInMapping(let duplicates, _):
      return SourceError(
        position(nil),
        "a key appears twice: \(YAMLText.bounded(duplicates.joined(separator: ", ")))")
    default:
      return SourceError(position(nil), "is not valid YAML: \(YAMLText.bounded("\(error)"))")
    }
  }

  /// The mapping's entries; a key not in `allowed` is an error (nil: any key).
  public func mapping(_ node: Node, _ what: String, keys allowed: [String]?) throws(SourceError)
    -> [(key: String, keyNode: Node, value: Node)]
  {
    guard let mapping = node.mapping else {
      throw SourceError(position(node), "\(what) must be a mapping (key: value)")
    }
    var result: [(String, Node, Node)] = []
    for (keyNode, value) in mapping {
      guard let key = keyNode.scalar?.string else {
        throw SourceError(position(keyNode), "keys in \(what) must be plain names")
      }
      if let allowed, !allowed.contains(key) {
        var message =
          "unknown key \"\(key)\" in \(what); expected \(allowed.joined(separator: ", "))"
        if let nearest = Suggestion.nearest(to: key, in: allowed) {
          message += ". Did you mean \"\(nearest)\"?"
        }
        throw SourceError(position(keyNode), message)
      }
      result.append((key, keyNode, value))
    }
    return result
  }

  public func string(_ node: Node, _ what: String) throws(SourceError) -> String {
    guard let scalar = node.scalar else {
      throw SourceError(position(node), "\(what) must be a single value")
    }
    return scalar.string
  }

  public func bool(_ node: Node, _ what: String) throws(SourceError) -> Bool {
    let text = try string(node, what)
    switch text.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default:
      throw SourceError(position(node), "\(what) must be true or false; got \"\(text)\"")
    }
  }

  public func duration(_ node: Node, _ what: String) throws(SourceError) -> Double {
    let text = try string(node, what)
    switch DurationText.parse(text) {
    case .success(let seconds): return seconds
    case .failure(let problem): throw SourceError(position(node), "\(what): \(problem)")
    }
  }

  public func strings(_ node: Node, _ what: String) throws(SourceError) -> [(String, Node)] {
    if node.scalar != nil { return [(try string(node, what), node)] }
    guard let sequence = node.sequence else {
      throw SourceError(position(node), "\(what) must be a value or a list of values")
    }
    var result: [(String, Node)] = []
    for item in sequence { result.append((try string(item, what), item)) }
    return result
  }
}
